import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ElicitationRequest } from '../../protocol/elicitation';
import type { AuditEntry } from '../audit/audit-log';
import { canonicalJson, sha256Hex } from '../shared/canonical-json';
import { ElicitationDesk, MAX_OPEN_QUESTIONS_PER_SERVER, questionDecision } from './elicitations';

const FORM = {
  message: 'Name?',
  requestedSchema: {
    type: 'object',
    properties: { name: { type: 'string' }, n: { type: 'integer', default: 3 } },
    required: ['name'],
  },
};

function desk(options: { announce?: boolean } = {}) {
  const shown: ElicitationRequest[] = [];
  const settled: Array<[string, string, string]> = [];
  const logs: string[] = [];
  const recorded: AuditEntry[] = [];
  const d = new ElicitationDesk({
    ...(options.announce === false ? {} : { announce: (r) => shown.push(r) }),
    settled: (id, action, by) => settled.push([id, action, by]),
    log: (_, message) => logs.push(message),
    record: (entry) => recorded.push(entry),
    timeoutMs: 1_000,
  });
  return { d, shown, settled, logs, recorded };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('questionDecision', () => {
  it.each([
    ['accept', 'user', 'accepted'],
    ['decline', 'user', 'declined'],
    ['cancel', 'user', 'cancelled'],
    ['decline', 'no-page', 'no-page'],
    ['cancel', 'timeout', 'timed-out'],
    ['cancel', 'server', 'withdrawn'],
    ['cancel', 'host', 'shutdown'],
  ] as const)('%s by %s is recorded as %s', (action, by, decision) => {
    expect(questionDecision(action, by)).toBe(decision);
  });
});

describe('ElicitationDesk', () => {
  it('records each question: how it ended, for how long, and the answer’s size, not its values', async () => {
    const { d, shown, recorded } = desk();
    const answer = d.ask('s', FORM, new AbortController().signal);
    d.respond(shown[0]?.id ?? '', 'accept', { name: 'Ada' });
    await answer;
    const text = canonicalJson({ name: 'Ada', n: 3 });
    expect(recorded).toEqual([
      {
        event: 'question',
        server: 's',
        decision: 'accepted',
        durationMs: expect.any(Number) as number,
        resultBytes: Buffer.byteLength(text),
        resultHash: sha256Hex(text),
      },
    ]);
    expect(JSON.stringify(recorded)).not.toContain('Ada');

    const declined = d.ask('s', FORM, new AbortController().signal);
    d.respond(shown[1]?.id ?? '', 'decline', undefined);
    await declined;
    expect(recorded[1]).toEqual({
      event: 'question',
      server: 's',
      decision: 'declined',
      durationMs: expect.any(Number) as number,
    });
  });

  it('records the questions nobody could be asked, and those it could not show', async () => {
    const cli = desk({ announce: false });
    await cli.d.ask('s', FORM, new AbortController().signal);
    expect(cli.recorded).toEqual([{ event: 'question', server: 's', decision: 'no-browser' }]);
    const page = desk();
    await page.d.ask('s', { message: 'x' }, new AbortController().signal).catch(() => undefined);
    expect(page.recorded).toEqual([{ event: 'question', server: 's', decision: 'refused' }]);
  });

  it('declines at once, saying why, when nobody can be asked (the command line)', async () => {
    const { d, logs } = desk({ announce: false });
    await expect(d.ask('s', FORM, new AbortController().signal)).resolves.toEqual({
      action: 'decline',
    });
    expect(logs.join()).toMatch(/no browser to ask/);
    expect(d.pending()).toEqual([]);
  });

  it('refuses a request it cannot show, and shows nothing', async () => {
    const { d, shown } = desk();
    await expect(d.ask('s', { message: 'x' }, new AbortController().signal)).rejects.toThrow(
      /cannot show this request/,
    );
    expect(shown).toEqual([]);
  });

  it('accepts a checked answer with the defaults filled in', async () => {
    const { d, shown, settled } = desk();
    const answer = d.ask('s', FORM, new AbortController().signal);
    const card = shown[0];
    expect(card?.mode).toBe('form');
    expect(() => {
      d.respond(card?.id ?? '', 'accept', {});
    }).toThrow(/'name' is required/);
    expect(d.pending()).toHaveLength(1);
    d.respond(card?.id ?? '', 'accept', { name: 'Ada' });
    await expect(answer).resolves.toEqual({ action: 'accept', content: { name: 'Ada', n: 3 } });
    expect(settled).toEqual([[card?.id, 'accept', 'user']]);
    expect(() => {
      d.respond(card?.id ?? '', 'accept', { name: 'Ada' });
    }).toThrow(/no longer waiting/);
  });

  it('cancels when the server gives up, when the clock runs out, and for a server whose calls ended', async () => {
    vi.useFakeTimers();
    const { d, settled } = desk();
    const server = new AbortController();
    const byServer = d.ask('s', FORM, server.signal);
    server.abort();
    await expect(byServer).resolves.toEqual({ action: 'cancel' });
    const byClock = d.ask('s', FORM, new AbortController().signal);
    vi.advanceTimersByTime(1_000);
    await expect(byClock).resolves.toEqual({ action: 'cancel' });
    const ended = d.ask('t', FORM, new AbortController().signal);
    const other = d.ask('u', FORM, new AbortController().signal);
    d.cancelFor('t');
    await expect(ended).resolves.toEqual({ action: 'cancel' });
    expect(d.pending().map((r) => r.server)).toEqual(['u']);
    d.cancelAll();
    await expect(other).resolves.toEqual({ action: 'cancel' });
    expect(settled.map(([, , by]) => by)).toEqual(['server', 'timeout', 'server', 'host']);
  });

  it('refuses a server more questions than a person can have open, and counts per server', async () => {
    const { d, shown, logs, recorded } = desk();
    const signal = new AbortController().signal;
    // A server asking in a loop: every ask used to become a card and a timer, without end.
    const asks = Array.from({ length: 50 }, () => d.ask('loop', FORM, signal));
    const outcomes = await Promise.allSettled(asks.slice(MAX_OPEN_QUESTIONS_PER_SERVER));
    expect(outcomes.every((o) => o.status === 'rejected')).toBe(true);
    expect(shown).toHaveLength(MAX_OPEN_QUESTIONS_PER_SERVER);
    expect(d.pending()).toHaveLength(MAX_OPEN_QUESTIONS_PER_SERVER);
    expect(logs.at(-1)).toMatch(/already has 8 waiting/);
    expect(recorded.at(-1)).toEqual({ event: 'question', server: 'loop', decision: 'refused' });
    // Another server still asks; and once one card ends, the first may ask again.
    void d.ask('other', FORM, signal);
    expect(d.pending().filter((r) => r.server === 'other')).toHaveLength(1);
    d.respond(shown[0]?.id ?? '', 'decline', undefined);
    await asks[0];
    void d.ask('loop', FORM, signal);
    expect(d.pending().filter((r) => r.server === 'loop')).toHaveLength(
      MAX_OPEN_QUESTIONS_PER_SERVER,
    );
    d.cancelAll();
  });
});
