import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initialValues, type ElicitationRequest } from '../../protocol/elicitation';
import { hostNotifications } from '../../protocol/methods';
import { join } from 'node:path';
import { EVERYTHING_SERVER, HostHarness, ROOT, unwrap } from './host-harness';

// A server's questions to the user (issue 12) through the real bundled host: server-everything's
// `trigger-elicitation-request` asks with a form of every field type MCP has; the card is
// answered here as the side panel would (its defaults pre-filled), declined, refused when the
// answer does not fit, and held open past the tool's own timeout while the user thinks.

interface Tool {
  name: string;
  tool: string;
}

const requested = (host: HostHarness, after: number) =>
  host.until(
    () =>
      host.notifications
        .slice(after)
        .find((n) => n.method === 'notifications/elicitation/requested'),
    'notifications/elicitation/requested',
  );

describe('elicitation through the host', () => {
  let host: HostHarness;
  let ask: string;

  beforeAll(async () => {
    // A 1 s tool timeout: a question the user takes longer over must not time the call out.
    host = await HostHarness.start({
      everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], toolTimeout: 1 },
    });
    await host.settled();
    const { tools } = await host.call<{ tools: Tool[] }>('tools/list', { server: 'everything' });
    const tool = tools.find((t) => t.tool === 'trigger-elicitation-request');
    if (tool === undefined)
      throw new Error('server-everything lists no elicitation tool: no capability?');
    ask = tool.name;
    await host.call('policy/set', { tool: ask, policy: 'allow' });
  });
  afterAll(async () => {
    await host.close();
  });

  /** Starts the tool call and waits for its card. */
  async function start(): Promise<{
    card: ElicitationRequest;
    call: ReturnType<HostHarness['request']>;
  }> {
    const before = host.notifications.length;
    const call = host.request('tools/call', { name: ask, arguments: {} });
    const note = await requested(host, before);
    const { request } = hostNotifications['notifications/elicitation/requested'].parse(note.params);
    return { card: request, call };
  }

  it('shows the server’s form as typed fields, and the answer reaches the server', async () => {
    const { card, call } = await start();
    expect(card.server).toBe('everything');
    expect(card.mode).toBe('form');
    if (card.mode !== 'form') return;
    const kinds = Object.fromEntries(card.fields.map((f) => [f.name, f.kind]));
    expect(kinds).toMatchObject({
      name: 'text',
      check: 'boolean',
      email: 'text',
      integer: 'number',
      untitledSingleSelectEnum: 'choice',
      untitledMultipleSelectEnum: 'choices',
      titledSingleSelectEnum: 'choice',
      legacyTitledEnum: 'choice',
    });
    const legacy = card.fields.find((f) => f.name === 'legacyTitledEnum');
    expect(legacy?.kind === 'choice' ? legacy.options[1] : undefined).toEqual({
      value: 'pet-2',
      label: 'Dogs',
    });
    const pending = await host.call<{ requests: ElicitationRequest[] }>('elicitation/pending');
    expect(pending.requests.map((r) => r.id)).toEqual([card.id]);

    // Longer than the tool's 1 s timeout: the server is waiting on the user, not stuck.
    await new Promise((resolve) => setTimeout(resolve, 2_500));

    // A value the form refuses is refused before it reaches the server; the card stays.
    const values = { ...initialValues(card.fields), name: 'Ada Lovelace' };
    const bad = await host.request('elicitation/respond', {
      id: card.id,
      action: 'accept',
      content: { ...values, integer: 500, email: 'not-an-email' },
    });
    expect(bad.error?.data?.reason).toBe('invalid-params');
    expect(bad.error?.message).toMatch(/'integer' must be at most 100/);
    expect(bad.error?.message).toMatch(/'email' is not an email address/);

    const before = host.notifications.length;
    await host.call('elicitation/respond', { id: card.id, action: 'accept', content: values });
    const reply = await call;
    expect(reply.error).toBeUndefined();
    const text = (reply.result as { content: Array<{ text?: string }> }).content
      .map((c) => unwrap(c.text ?? ''))
      .join('\n');
    expect(text).toContain('- Name: Ada Lovelace');
    // The defaults the form showed were sent as the user left them.
    expect(text).toContain('- Favorite Integer: 42');
    expect(host.notifications.slice(before)).toContainEqual({
      method: 'notifications/elicitation/settled',
      params: { id: card.id, action: 'accept', by: 'user' },
    });
    expect((await host.call<{ requests: unknown[] }>('elicitation/pending')).requests).toEqual([]);
  });

  it('passes the user’s decline to the server', async () => {
    const { card, call } = await start();
    await host.call('elicitation/respond', { id: card.id, action: 'decline' });
    const reply = await call;
    const text = JSON.stringify(reply.result);
    expect(text).toContain('declined');
  });

  it('declines, saying why, when the extension has no side panel to ask in', async () => {
    const { card, call } = await start();
    const before = host.notifications.length;
    await host.call('elicitation/respond', {
      id: card.id,
      action: 'decline',
      unanswered: 'no-page',
    });
    await call;
    expect(host.notifications.slice(before)).toContainEqual({
      method: 'notifications/elicitation/settled',
      params: { id: card.id, action: 'decline', by: 'no-page' },
    });
    const logged = host.notifications
      .slice(before)
      .filter((n) => n.method === 'notifications/log')
      .map((n) => (n.params as { message: string }).message);
    expect(logged.join('\n')).toMatch(/no side panel was open/);
  });

  it('answers a card that is no longer pending with not-pending', async () => {
    const answer = await host.request('elicitation/respond', { id: 'gone', action: 'accept' });
    expect(answer.error?.data?.reason).toBe('not-pending');
  });

  it('cancels the card when the call is cancelled', async () => {
    const before = host.notifications.length;
    const call = host.request('tools/call', { name: ask, arguments: {} }, 'cancel-me');
    const note = await requested(host, before);
    const { id } = (note.params as { request: ElicitationRequest }).request;
    host.notify('notifications/cancelled', { requestId: 'cancel-me' });
    await call;
    await host.until(
      () =>
        host.notifications.find(
          (n) =>
            n.method === 'notifications/elicitation/settled' &&
            (n.params as { id?: string }).id === id,
        ),
      'the card settled',
    );
    expect((await host.call<{ requests: unknown[] }>('elicitation/pending')).requests).toEqual([]);
  });
});

// On 2026-07-28 a server does not send `elicitation/create`: it answers the call with an
// `input_required` result, and the client asks, then retries the call with the answer. The SDK
// drives the retry; the question still reaches the user through the same card and gate.
describe('input_required from a 2026-07-28 server', () => {
  let host: HostHarness;
  let deploy: string;

  beforeAll(async () => {
    host = await HostHarness.start({
      modern: { command: process.execPath, args: [join(ROOT, 'test/fixtures/modern-server.mjs')] },
    });
    const servers = await host.settled();
    expect(servers.find((s) => s.name === 'modern')?.status).toMatchObject({
      protocolVersion: '2026-07-28',
    });
    const { tools } = await host.call<{ tools: Tool[] }>('tools/list', { server: 'modern' });
    const tool = tools.find((t) => t.tool === 'deploy');
    if (tool === undefined) throw new Error('the modern fixture lists no deploy tool');
    deploy = tool.name;
    await host.call('policy/set', { tool: deploy, policy: 'allow' });
  });
  afterAll(async () => {
    await host.close();
  });

  async function ask(): Promise<{
    card: ElicitationRequest;
    call: ReturnType<HostHarness['request']>;
  }> {
    const before = host.notifications.length;
    const call = host.request('tools/call', { name: deploy, arguments: { env: 'prod' } });
    const note = await requested(host, before);
    const { request } = hostNotifications['notifications/elicitation/requested'].parse(note.params);
    return { card: request, call };
  }

  const text = (reply: Awaited<ReturnType<HostHarness['request']>>): string =>
    (reply.result as { content: Array<{ text?: string }> }).content
      .map((c) => unwrap(c.text ?? ''))
      .join('\n');

  it('becomes a card naming the server; the accepted answer completes the call', async () => {
    const { card, call } = await ask();
    expect(card.server).toBe('modern');
    expect(card.mode).toBe('form');
    if (card.mode !== 'form') return;
    expect(card.fields.map((f) => [f.name, f.kind])).toEqual([['confirm', 'boolean']]);
    await host.call('elicitation/respond', {
      id: card.id,
      action: 'accept',
      content: { confirm: true },
    });
    const reply = await call;
    expect(reply.error).toBeUndefined();
    expect(text(reply)).toContain('deployed to prod');
  });

  it('passes a decline back to the server, which does not deploy', async () => {
    const { card, call } = await ask();
    await host.call('elicitation/respond', { id: card.id, action: 'decline' });
    expect(text(await call)).toContain('not deployed (decline)');
  });

  it('refuses an answer that does not fit the form before the server sees it', async () => {
    const { card, call } = await ask();
    const bad = await host.request('elicitation/respond', {
      id: card.id,
      action: 'accept',
      content: { confirm: 'yes' },
    });
    expect(bad.error?.data?.reason).toBe('invalid-params');
    await host.call('elicitation/respond', { id: card.id, action: 'cancel' });
    expect(text(await call)).toContain('not deployed (cancel)');
  });

  it('records every question in the activity log: how it ended and who ended it', async () => {
    const { entries } = await host.call<{
      entries: Array<{ event: string; server?: string; decision?: string; by?: string }>;
    }>('activity/list', { events: ['question'] });
    expect(entries.map((e) => [e.server, e.decision, e.by])).toEqual([
      ['modern', 'cancelled', 'user'],
      ['modern', 'declined', 'user'],
      ['modern', 'accepted', 'user'],
    ]);
  });

  it('shows a URL-mode question, which on 2026-07-28 carries no elicitationId', async () => {
    await host.call('policy/set', { tool: 'modern__link', policy: 'allow' });
    const before = host.notifications.length;
    const call = host.request('tools/call', { name: 'modern__link', arguments: {} });
    const note = await requested(host, before);
    const { request: card } = hostNotifications['notifications/elicitation/requested'].parse(
      note.params,
    );
    expect(card).toMatchObject({
      server: 'modern',
      mode: 'url',
      url: 'https://auth.example.com/link?session=1',
      origin: 'https://auth.example.com',
    });
    await host.call('elicitation/respond', { id: card.id, action: 'accept' });
    expect(text(await call)).toContain('link: accept');
  });
});
