import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ErrorReasonSchema } from '../../protocol/errors';
import { isRequestMethod, requestMethods } from '../../protocol/methods';
import { FUZZ_SEED, caseRng, mutateBytes } from '../support/fuzz';
import {
  FIXTURE_SERVER,
  HostHarness,
  approveAll,
  makeHome,
  processesMatching,
  rssKiB,
} from './host-harness';
import { expectationOf, frameCase, usableId, type FuzzFrame } from './frame-fuzz';

// Seeded fuzzing of the real bundled host over real frames (issue 13). The dangerous direction is
// a host that a hostile frame crashes, stalls or talks out of its contract: a request left
// unanswered, an answer that is no typed error, an `internal` error (a handler that threw), or
// memory that grows with what it was sent. Reproduce a failure with the FUZZ_SEED it names.

const PRE_HELLO_CASES = 100;
const CASES = 3_000;
/** Generous: the host idles around 60-90 MiB; a leak per frame would pass this within the run. */
const RSS_LIMIT_KIB = 400 * 1024;

const STACK_TRACE = /^\s+at .+:\d+:\d+\)?$/m;

function isolatedEnv(root: string): NodeJS.ProcessEnv {
  // The host sees a HOME of its own (import/preview reads other clients' files there) and an
  // empty PATH folder, so no command a fuzzed `servers/add` names can ever resolve.
  const home = join(root, 'user');
  const emptyPath = join(root, 'empty-path');
  mkdirSync(home);
  mkdirSync(emptyPath);
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    APPDATA: undefined,
    FLATPAK_XDG_CONFIG_HOME: undefined,
    PATH: emptyPath,
  };
}

/** A host on a fresh home whose `servers` run the scripted fixture (tagged with `marker`). */
function startHost(marker: string, servers: readonly string[] = ['fx', 'victim']): HostHarness {
  const entry = { command: process.execPath, args: [FIXTURE_SERVER, marker], toolTimeout: 2 };
  const home = makeHome({
    mcpServers: Object.fromEntries(servers.map((name) => [name, entry])),
    // Calls to these reach the server with whatever arguments the fuzz sends; the rest ask.
    toolPolicy: Object.fromEntries(
      ['ok', 'echo_args', 'fail', 'hostile', 'weird-content', 'rpc-error', 'progress'].map(
        (tool) => [`fx__${tool}`, 'allow'],
      ),
    ),
  });
  if (servers.length > 0) approveAll(home);
  const root = mkdtempSync(join(tmpdir(), 'switchyard-fuzz-'));
  return new HostHarness(home, { env: isolatedEnv(root) });
}

const keyOf = (id: unknown): string => `${typeof id}:${String(id)}`;

interface Sent {
  readonly index: number;
  readonly frame: FuzzFrame;
  readonly method: string;
  readonly params: unknown;
  readonly greeted: boolean;
}

/** Where a failure came from: the case (or, for an id several cases used, all of them). */
function describeCase(sent: readonly Sent[] | undefined): string {
  const first = sent?.[0];
  if (sent === undefined || first === undefined) return 'an id never sent';
  if (sent.length > 1) {
    const cases = sent.map((s) => `${s.index} (${s.frame.what})`).join(', ');
    return `FUZZ_SEED=${FUZZ_SEED}, one of the cases sharing an id: ${cases}`;
  }
  const payload = first.frame.payload.toString('utf8');
  const shown = payload.length > 300 ? `${payload.slice(0, 300)}…` : payload;
  return `FUZZ_SEED=${FUZZ_SEED} case ${first.index} (${first.frame.what}): ${shown}`;
}

const CODES: Partial<Record<string, readonly number[]>> = {
  'invalid-request': [-32700, -32600],
  'invalid-params': [-32602],
  'unknown-method': [-32601],
  internal: [-32603],
};

/** The JSON-RPC error shape with a reason from the closed set, its code matching the reason. */
function expectTypedError(reply: Reply, where: string): string {
  const error = reply.error;
  expect(error, where).toBeDefined();
  expect(Number.isSafeInteger(error?.code), where).toBe(true);
  expect(typeof error?.message, where).toBe('string');
  const reason = ErrorReasonSchema.safeParse(error?.data?.reason);
  expect(reason.success, `${where}: reason ${String(error?.data?.reason)}`).toBe(true);
  const wanted = CODES[reason.data ?? ''] ?? [-32000];
  expect(wanted, `${where}: code ${String(error?.code)} for ${String(reason.data)}`).toContain(
    error?.code,
  );
  return reason.data ?? '';
}

/** A response as the protocol shapes it; anything else the host sends fails the run. */
const ReplySchema = z.strictObject({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number(), z.null()]),
  result: z.unknown().optional(),
  error: z
    .strictObject({
      code: z.number(),
      message: z.string(),
      data: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
});
type Reply = z.infer<typeof ReplySchema>;

/** The host's responses to the fuzz's frames (the harness files them as orphan replies). */
function replies(host: HostHarness): Reply[] {
  return host.notifications.flatMap((n) => {
    if (n.method !== '(orphan reply)') return [];
    const parsed = ReplySchema.safeParse(n.params['message']);
    if (!parsed.success)
      throw new Error(`not a response: ${JSON.stringify(n.params['message']).slice(0, 300)}`);
    return [parsed.data];
  });
}

describe(`the host under fuzzed frames (FUZZ_SEED=${FUZZ_SEED})`, () => {
  it(`answers ${PRE_HELLO_CASES + CASES} hostile frames per the protocol, stays up and bounded`, async () => {
    const marker = `sy-fuzz-${randomUUID()}`;
    const host = startHost(marker);
    const byId = new Map<string, Sent[]>();
    let nullReplies = 0;
    let tools: string[] = [];
    const send = (index: number, greeted: boolean): void => {
      const rng = caseRng(FUZZ_SEED, index);
      for (const frame of frameCase(rng, index, { servers: ['fx'], victims: ['victim'], tools })) {
        const expectation = expectationOf(frame.payload);
        // Before the hello, a hello the fuzz sends would end that phase early: leave it out.
        if (!greeted && expectation.kind === 'request' && expectation.method === 'host/hello')
          continue;
        if (expectation.kind === 'null-reply') nullReplies += 1;
        if (expectation.kind === 'request') {
          const key = keyOf(expectation.id);
          const list = byId.get(key) ?? [];
          list.push({
            index,
            frame,
            method: expectation.method,
            params: expectation.params,
            greeted,
          });
          byId.set(key, list);
        }
        host.sendRaw(frame.bytes);
      }
    };
    try {
      for (let index = 0; index < PRE_HELLO_CASES; index += 1) send(index, false);
      expect((await host.hello()).result).toBeDefined();
      const listed = await host.settled();
      expect(listed.map((s) => [s.name, s.status.state])).toEqual([
        ['fx', 'running'],
        ['victim', 'running'],
      ]);
      const listing = await host.call<{ tools: Array<{ name: string }> }>('tools/list');
      tools = listing.tools.map((t) => t.name).filter((name) => name.startsWith('fx__'));
      const rssBefore = rssKiB(host.child.pid ?? 0);

      for (let index = PRE_HELLO_CASES; index < PRE_HELLO_CASES + CASES; index += 1)
        send(index, true);
      const requests = [...byId.values()].reduce((sum, list) => sum + list.length, 0);
      // Counted as they come (the predicate runs on every message the host sends).
      let seen = 0;
      let answered = 0;
      await host.until(
        () => {
          for (; seen < host.notifications.length; seen += 1) {
            if (host.notifications[seen]?.method === '(orphan reply)') answered += 1;
          }
          return answered >= requests + nullReplies;
        },
        `${requests} replies with ids and ${nullReplies} with id null`,
        45_000,
      );
      expect(host.child.exitCode, host.stderr.join('')).toBeNull();

      // Each request answered exactly once; each unusable frame with one id-null error.
      const got = new Map<string, Reply[]>();
      for (const reply of replies(host)) {
        expect(reply).toHaveProperty('jsonrpc', '2.0');
        expect('result' in reply !== 'error' in reply, JSON.stringify(reply).slice(0, 300)).toBe(
          true,
        );
        if (reply.id === null) {
          expect(expectTypedError(reply, 'an id-null reply')).toBe('invalid-request');
          continue;
        }
        expect(usableId(reply.id), `reply id ${String(reply.id)}`).toBe(true);
        const key = keyOf(reply.id);
        got.set(key, [...(got.get(key) ?? []), reply]);
      }
      expect(replies(host).filter((r) => r.id === null)).toHaveLength(nullReplies);
      for (const [key, answers] of got) {
        const sent = byId.get(key);
        expect(answers.length, `${answers.length} replies to ${describeCase(sent)}`).toBe(
          sent?.length ?? 0,
        );
      }
      for (const [key, sent] of byId) {
        expect(got.get(key)?.length ?? 0, `unanswered: ${describeCase(sent)}`).toBe(sent.length);
      }

      // What each answer says.
      let ranHandlers = 0;
      for (const [key, sent] of byId) {
        for (const reply of got.get(key) ?? []) {
          const where = describeCase(sent);
          if (reply.error === undefined) {
            const methods = sent.map((s) => s.method).filter(isRequestMethod);
            const fits = methods.some(
              (m) => requestMethods[m].result.safeParse(reply.result).success,
            );
            expect(fits, `result off its schema: ${where}`).toBe(true);
            ranHandlers += 1;
            continue;
          }
          const reason = expectTypedError(reply, where);
          expect(
            reason,
            `a handler threw: ${reply.error.message.slice(0, 500)}; ${where}`,
          ).not.toBe('internal');
          if (sent.length !== 1 || sent[0] === undefined) continue;
          const { method, params, greeted } = sent[0];
          if (!isRequestMethod(method)) {
            expect(reason, where).toBe('unknown-method');
          } else if (!greeted) {
            expect(reason, where).toBe('protocol-mismatch');
          } else if (!requestMethods[method].params.safeParse(params).success) {
            expect(reason, where).toBe('invalid-params');
            const issues: unknown = reply.error.data?.['issues'];
            expect(Array.isArray(issues) && issues.length >= 1 && issues.length <= 10, where).toBe(
              true,
            );
          } else if (reason !== 'invalid-params') {
            ranHandlers += 1;
          }
        }
      }
      // The fuzz reached the handlers, not only the validation in front of them.
      expect(ranHandlers).toBeGreaterThan(CASES / 10);

      // Still serving, and bounded.
      expect((await host.hello()).result).toBeDefined();
      expect(await host.call('servers/list')).toHaveProperty('servers');
      const rss = rssKiB(host.child.pid ?? 0);
      expect(rss, `RSS ${rss} KiB after the run, ${rssBefore} KiB before`).toBeLessThan(
        RSS_LIMIT_KIB,
      );
    } finally {
      const exit = await host.close();
      const stderr = host.stderr.join('');
      expect(exit, stderr.slice(-2_000)).toEqual({ code: 0, signal: null });
      expect(stderr).not.toMatch(/fatal/);
      expect(stderr).not.toMatch(STACK_TRACE);
      expect(processesMatching(marker)).toEqual([]);
    }
  });
});

/** The framing rule over a whole stream: its payloads, and whether a length over the cap ends it. */
function splitStream(stream: Buffer, cap: number): { payloads: Buffer[]; desync: boolean } {
  const payloads: Buffer[] = [];
  for (let offset = 0; stream.length - offset >= 4;) {
    const length = stream.readUInt32LE(offset);
    if (length > cap) return { payloads, desync: true };
    if (stream.length - offset - 4 < length) break;
    payloads.push(stream.subarray(offset + 4, offset + 4 + length));
    offset += 4 + length;
  }
  return { payloads, desync: false };
}

const MAX_INCOMING = 64 * 1024 * 1024;
const SOUPS = 8;

/** Sends `stream`, closes stdin, and checks the host ended as the framing rule says it must. */
async function expectCleanEnd(
  stream: Buffer,
  where: string,
  servers: readonly string[],
): Promise<void> {
  const marker = `sy-fuzz-${randomUUID()}`;
  const host = startHost(marker, servers);
  const { payloads, desync } = splitStream(stream, MAX_INCOMING);
  const sentIds = new Set(
    payloads.flatMap((p) => {
      const e = expectationOf(p);
      return e.kind === 'request' ? [keyOf(e.id)] : [];
    }),
  );
  await host.hello();
  await host.settled();
  host.sendRaw(stream);
  const exit = await host.close();
  const stderr = host.stderr.join('');
  // A length over the cap cannot be skipped (nothing says where the next frame starts): the host
  // must end, with code 1. Anything else ends when the browser closes the port: code 0.
  expect(exit, `${where}\n${stderr.slice(-2_000)}`).toEqual({ code: desync ? 1 : 0, signal: null });
  expect(stderr, where).toContain(`shutting down (channel closed: ${desync ? 'desync' : 'eof'})`);
  expect(stderr, where).not.toMatch(/fatal/);
  expect(stderr, where).not.toMatch(STACK_TRACE);
  for (const reply of replies(host)) {
    if (reply.id !== null) expect(sentIds.has(keyOf(reply.id)), where).toBe(true);
  }
  expect(processesMatching(marker), where).toEqual([]);
}

const frameBytes = (value: unknown): Buffer => {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  const header = Buffer.alloc(4);
  header.writeUInt32LE(body.length, 0);
  return Buffer.concat([header, body]);
};
const lengthOnly = (length: number): Buffer => {
  const header = Buffer.alloc(4);
  header.writeUInt32LE(length, 0);
  return header;
};
const list = frameBytes({ jsonrpc: '2.0', id: 'a', method: 'servers/list' });

describe(`frames that end the connection (FUZZ_SEED=${FUZZ_SEED})`, () => {
  it.each([
    ['a length of 0xFFFFFFFF', Buffer.concat([list, lengthOnly(0xffff_ffff), list])],
    ['a length of 64 MiB + 1', Buffer.concat([list, lengthOnly(MAX_INCOMING + 1)])],
    [
      'a length of exactly 64 MiB, then the end of input',
      Buffer.concat([list, lengthOnly(MAX_INCOMING)]),
    ],
    ['a frame cut off by the end of input', Buffer.concat([list, list.subarray(0, 9)])],
    ['half a length prefix', Buffer.concat([list, Buffer.from([0x10, 0x00])])],
  ])('ends cleanly on %s', async (what, stream) => {
    // With a server running, so that ending also proves it is stopped.
    await expectCleanEnd(stream, what, ['fx']);
  });

  it(`ends as the framing rule says on ${SOUPS} seeded streams whose framing falls apart`, async () => {
    for (let soup = 0; soup < SOUPS; soup += 1) {
      const rng = caseRng(FUZZ_SEED, 1_000_000 + soup);
      const frames: Buffer[] = [];
      for (let n = rng.between(5, 40); n > 0; n -= 1) {
        const [frame] = frameCase(rng, soup * 100 + n, { servers: ['fx'], victims: [], tools: [] });
        if (frame !== undefined) frames.push(frame.bytes);
      }
      // Mutations that reach the length prefixes: the stream goes out of step from there on.
      const stream = mutateBytes(rng, Buffer.concat(frames), 4);
      await expectCleanEnd(stream, `FUZZ_SEED=${FUZZ_SEED} soup ${soup}`, []);
    }
  });
});
