import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestMethods } from '../../protocol/methods';
import { EVERYTHING_SERVER, FIXTURE_SERVER, HostHarness, MEMORY_SERVER } from './host-harness';

// Resources, resource templates, prompts and completions (issue 12) through the real bundled host:
// server-everything has all of them; the scripted fixture pages its resources, sends malformed
// and hostile entries, and announces list changes; the memory server has one resource (its
// knowledge graph, with subscriptions) and no prompts.

const SERVERS = {
  everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
  scripted: { command: process.execPath, args: [FIXTURE_SERVER, '--context'] },
  memory: {
    command: process.execPath,
    args: [MEMORY_SERVER],
    env: { MEMORY_FILE_PATH: join(mkdtempSync(join(tmpdir(), 'switchyard-ctx-')), 'memory.jsonl') },
  },
};

const PROFILES = [
  {
    id: 'scripted-only',
    name: 'Scripted only',
    match: ['https://scripted.example/*'],
    servers: ['scripted'],
    mode: 'full',
  },
];

type Method = keyof typeof requestMethods;

/** A tool call, allowed once from its approval card where the policy asks (as a user would). */
async function callApproved(host: HostHarness, name: string, args: Record<string, unknown>) {
  const first = await host.request('tools/call', { name, arguments: args });
  if (first.error?.data?.reason !== 'approval-required') {
    if (first.error) throw new Error(JSON.stringify(first.error));
    return first.result;
  }
  const approval = first.error.data['approval'] as { requestId: string; nonce: string };
  return host.call('tools/call', {
    name,
    arguments: args,
    approval: { requestId: approval.requestId, nonce: approval.nonce },
  });
}

async function reply(host: HostHarness, method: Method, params?: unknown) {
  return host.request(method, params);
}

async function result<M extends Method>(host: HostHarness, method: M, params?: unknown) {
  const answer = await host.call(method, params);
  // Every answer is what the protocol table promises: the extension parses it with the same schema.
  return requestMethods[method].result.parse(answer) as ReturnType<
    (typeof requestMethods)[M]['result']['parse']
  >;
}

describe('server context through the host', () => {
  let host: HostHarness;

  beforeAll(async () => {
    host = await HostHarness.start(SERVERS, { profiles: PROFILES });
    await host.settled();
  });
  afterAll(async () => {
    await host.close();
  });

  it('lists every running server’s resources, following pages, each naming its server', async () => {
    const { resources, problems } = await result(host, 'resources/list');
    const everything = resources.filter((r) => r.server === 'everything');
    expect(everything.length).toBeGreaterThan(0);
    expect(everything.every((r) => r.uri.startsWith('demo://'))).toBe(true);
    // The scripted server's five entries come two per page; the one without a uri is skipped.
    const scripted = resources.filter((r) => r.server === 'scripted');
    expect(scripted.map((r) => r.uri)).toEqual([
      'scripted://notes/1',
      'scripted://notes/2',
      'scripted://notes/4',
      'scripted://notes/5',
    ]);
    expect(problems).toEqual([{ server: 'scripted', message: '1 malformed entries were skipped' }]);
    expect(resources.filter((r) => r.server === 'memory').map((r) => r.name)).toEqual([
      'knowledge-graph',
    ]);
  });

  it('puts every resource string through the untrusted-text gate', async () => {
    const { resources } = await result(host, 'resources/list', { server: 'scripted' });
    const [first, second, third] = resources;
    expect(first?.name).not.toContain('\u001b');
    expect(first?.name).toContain('Notes');
    expect(second?.description?.length).toBeLessThanOrEqual(2_000);
    expect(second?.description).toMatch(/truncated/);
    // A resource without a name is named by its uri.
    expect(third?.name).toBe('scripted://notes/4');
  });

  it('lists resource templates with their variables, completes, expands and reads one', async () => {
    const { resourceTemplates } = await result(host, 'resources/templates/list', {
      server: 'everything',
    });
    expect(resourceTemplates.every((t) => t.server === 'everything')).toBe(true);
    const text = resourceTemplates.find((t) => t.name === 'Dynamic Text Resource');
    expect(text).toMatchObject({
      uriTemplate: 'demo://resource/dynamic/text/{resourceId}',
      variables: ['resourceId'],
      mimeType: 'text/plain',
    });
    // The server completes its variable (it echoes a positive integer, refuses anything else).
    const ref = { type: 'ref/resource', uri: text?.uriTemplate };
    const good = await result(host, 'completion/complete', {
      server: 'everything',
      ref,
      argument: { name: 'resourceId', value: '7' },
    });
    expect(good.values).toEqual(['7']);
    const bad = await result(host, 'completion/complete', {
      server: 'everything',
      ref,
      argument: { name: 'resourceId', value: 'x' },
    });
    expect(bad.values).toEqual([]);
    // The host makes the address (RFC 6570, values percent-encoded), then it reads like any other.
    const { uri } = await result(host, 'resources/templates/expand', {
      uriTemplate: text?.uriTemplate,
      arguments: { resourceId: '7' },
    });
    expect(uri).toBe('demo://resource/dynamic/text/7');
    const { contents } = await result(host, 'resources/read', { server: 'everything', uri });
    expect(contents[0]?.uri).toBe(uri);
    expect(contents[0] && 'text' in contents[0] ? contents[0].text : '').toMatch(/7/);
    const encoded = await result(host, 'resources/templates/expand', {
      uriTemplate: text?.uriTemplate,
      arguments: { resourceId: 'a/b c' },
    });
    expect(encoded.uri).toBe('demo://resource/dynamic/text/a%2Fb%20c');
  });

  it('refuses to expand a template with a blank or unknown variable, in words', async () => {
    const blank = await reply(host, 'resources/templates/expand', {
      uriTemplate: 'demo://resource/dynamic/text/{resourceId}',
      arguments: {},
    });
    expect(blank.error?.message).toMatch(/Fill in 'resourceId'/);
    const unknown = await reply(host, 'resources/templates/expand', {
      uriTemplate: 'demo://resource/dynamic/text/{resourceId}',
      arguments: { resourceId: '1', other: '2' },
    });
    expect(unknown.error?.message).toMatch(/other/);
  });

  it('lists every server’s templates; a server without templates is no problem', async () => {
    const all = await result(host, 'resources/templates/list', {});
    expect(all.resourceTemplates.some((t) => t.server === 'everything')).toBe(true);
    expect(all.resourceTemplates.some((t) => t.server === 'memory')).toBe(false);
    expect(all.problems.filter((p) => p.server === 'memory')).toEqual([]);
  });

  it('reads a resource: text gated, a blob kept, a malformed entry a visible note', async () => {
    const { server, contents } = await result(host, 'resources/read', {
      server: 'scripted',
      uri: 'scripted://notes/1',
    });
    expect(server).toBe('scripted');
    expect(contents).toHaveLength(3);
    const [text, blob, malformed] = contents;
    expect(text && 'text' in text ? text.text : '').not.toContain('\u001b');
    expect(text && 'text' in text ? text.text : '').toContain('[REDACTED');
    expect(blob).toEqual({
      uri: 'scripted://notes/1',
      blob: 'AAEC',
      mimeType: 'application/octet-stream',
    });
    expect(malformed && 'text' in malformed ? malformed.text : '').toMatch(/malformed/);
  });

  it('reads server-everything’s text resources', async () => {
    const { resources } = await result(host, 'resources/list', { server: 'everything' });
    const first = resources[0];
    expect(first).toBeDefined();
    const { contents } = await result(host, 'resources/read', {
      server: 'everything',
      uri: first?.uri,
    });
    expect(contents.length).toBeGreaterThan(0);
    expect(contents[0]?.uri).toBe(first?.uri);
  });

  it('answers a missing resource with the server’s error, not a crash', async () => {
    const answer = await reply(host, 'resources/read', {
      server: 'scripted',
      uri: 'scripted://nope',
    });
    expect(answer.error?.data?.reason).toBe('server-error');
    expect(answer.error?.message).toMatch(/not found/i);
    const { servers } = await result(host, 'servers/list');
    expect(servers.find((s) => s.name === 'scripted')?.status.state).toBe('running');
  });

  it('says when a server offers no resources or prompts', async () => {
    const list = await reply(host, 'prompts/list', { server: 'memory' });
    expect(list.error?.data?.reason).toBe('not-supported');
    expect(list.error?.message).toBe("Server 'memory' does not offer prompts.");
    const prompts = await reply(host, 'prompts/get', { server: 'memory', name: 'x' });
    expect(prompts.error?.data?.reason).toBe('not-supported');
    const completion = await result(host, 'completion/complete', {
      server: 'memory',
      ref: { type: 'ref/prompt', name: 'x' },
      argument: { name: 'a', value: '' },
    });
    expect(completion.values).toEqual([]);
  });

  it('lists prompts and gets one with arguments', async () => {
    const { prompts } = await result(host, 'prompts/list');
    const args = prompts.find((p) => p.server === 'everything' && p.name === 'args-prompt');
    expect(args?.arguments.map((a) => [a.name, a.required === true])).toEqual([
      ['city', true],
      ['state', false],
    ]);
    const got = await result(host, 'prompts/get', {
      server: 'everything',
      name: 'args-prompt',
      arguments: { city: 'Lisbon' },
    });
    expect(got.messages.length).toBeGreaterThan(0);
    const first = got.messages[0];
    expect(first?.content.type === 'text' ? first.content.text : '').toContain('Lisbon');

    const review = prompts.find((p) => p.server === 'scripted');
    expect(review?.description).not.toContain('\u202e');
    const scripted = await result(host, 'prompts/get', {
      server: 'scripted',
      name: 'review',
      arguments: { file: 'a.ts' },
    });
    // A message with a role MCP does not have becomes a visible note; the other is relayed.
    expect(scripted.messages.map((m) => m.content.type === 'text' && m.content.text)).toEqual([
      'Review a.ts',
      '[Switchyard: omitted a prompt message the host cannot relay]',
    ]);
  });

  it('completes a prompt argument from the server’s completions', async () => {
    const { values } = await result(host, 'completion/complete', {
      server: 'everything',
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'department', value: 'E' },
    });
    expect(values.length).toBeGreaterThan(0);
    expect(values.every((v) => v.toLowerCase().startsWith('e'))).toBe(true);
  });

  it('relays a server’s resources list_changed as notifications/resources/changed', async () => {
    const before = host.notifications.length;
    const { tools } = await host.call<{ tools: Array<{ name: string; tool: string }> }>(
      'tools/list',
      { server: 'scripted' },
    );
    const ok = tools.find((t) => t.tool === 'ok');
    expect(ok).toBeDefined();
    await callApproved(host, ok?.name ?? '', {});
    await host.until(
      () =>
        host.notifications
          .slice(before)
          .find(
            (n) =>
              n.method === 'notifications/resources/changed' &&
              (n.params as { server?: string }).server === 'scripted',
          ),
      'notifications/resources/changed',
    );
  });

  it('subscribes to a resource where the server offers it', async () => {
    const { resources } = await result(host, 'resources/list', { server: 'everything' });
    const uri = resources[0]?.uri;
    const subscribed = await result(host, 'resources/subscribe', { server: 'everything', uri });
    expect(subscribed.subscribed).toBe(true);
    const scripted = await result(host, 'resources/subscribe', {
      server: 'scripted',
      uri: 'scripted://notes/1',
    });
    expect(scripted.subscribed).toBe(false);
    const unsubscribed = await result(host, 'resources/unsubscribe', { server: 'everything', uri });
    expect(unsubscribed.unsubscribed).toBe(true);
  });

  it('relays resources/updated for a subscribed resource when the server changes it', async () => {
    const { resources } = await result(host, 'resources/list', { server: 'memory' });
    const graph = resources[0]?.uri ?? '';
    expect(
      (await result(host, 'resources/subscribe', { server: 'memory', uri: graph })).subscribed,
    ).toBe(true);
    const before = host.notifications.length;
    const { tools } = await host.call<{ tools: Array<{ name: string; tool: string }> }>(
      'tools/list',
      { server: 'memory' },
    );
    const create = tools.find((t) => t.tool === 'create_entities');
    await callApproved(host, create?.name ?? '', {
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote notes'] }],
    });
    const updated = await host.until(
      () =>
        host.notifications
          .slice(before)
          .find((n) => n.method === 'notifications/resources/updated'),
      'notifications/resources/updated',
    );
    expect(updated.params).toEqual({ server: 'memory', uri: graph });
    const { contents } = await result(host, 'resources/read', { server: 'memory', uri: graph });
    expect(contents[0] && 'text' in contents[0] ? contents[0].text : '').toContain('Ada');
  });

  it('tells a server that asks for sampling that Switchyard does not offer it, in words', async () => {
    const { tools } = await host.call<{ tools: Array<{ name: string; tool: string }> }>(
      'tools/list',
      { server: 'scripted' },
    );
    const sample = tools.find((t) => t.tool === 'sample');
    const answer = (await callApproved(host, sample?.name ?? '', {})) as {
      content: Array<{ text: string }>;
    };
    const said = answer.content.map((c) => c.text).join('\n');
    expect(said).toContain('error -32601');
    expect(said).toContain('Switchyard does not offer sampling');
  });

  it('hides a server the active profile hides: its context does not exist on that site', async () => {
    const { resources } = await result(host, 'resources/list', { profile: 'scripted-only' });
    expect(new Set(resources.map((r) => r.server))).toEqual(new Set(['scripted']));
    const { prompts } = await result(host, 'prompts/list', { profile: 'scripted-only' });
    expect(new Set(prompts.map((p) => p.server))).toEqual(new Set(['scripted']));
    for (const [method, params] of [
      ['resources/read', { server: 'everything', uri: 'demo://resource/static/document/x' }],
      ['resources/list', { server: 'everything' }],
      ['prompts/get', { server: 'everything', name: 'simple-prompt' }],
      [
        'completion/complete',
        {
          server: 'everything',
          ref: { type: 'ref/prompt', name: 'completable-prompt' },
          argument: { name: 'department', value: '' },
        },
      ],
    ] as const) {
      const answer = await reply(host, method, { ...params, profile: 'scripted-only' });
      expect(answer.error?.data?.reason, method).toBe('unknown-server');
    }
  });
});
