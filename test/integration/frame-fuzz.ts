import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRequestMethod, requestMethods, type RequestMethod } from '../../protocol/methods';
import {
  HOSTILE_NUMBERS,
  INVALID_UTF8,
  hostileString,
  DeepNest,
  hostileValue,
  jsonText,
  mutateBytes,
  type Rng,
} from '../support/fuzz';
import { ROOT } from './host-harness';

/**
 * Frames for the seeded fuzz of the real host (host-frames.fuzz.test.ts), and what the host must
 * answer to each, worked out from docs/protocol.md ("Framing", "Messages"): on purpose not from the
 * host's own envelope code, so the two check each other. Params are judged by the method table's
 * schemas, which are the contract itself.
 */

export const METHODS: readonly RequestMethod[] =
  Object.keys(requestMethods).filter(isRequestMethod);

/** What the host must do with one payload. */
export type Expectation =
  /** Not UTF-8 JSON, or JSON that is no JSON-RPC 2.0 message: one error reply with `id: null`. */
  | { kind: 'null-reply' }
  /** A request: exactly one reply with this id. */
  | { kind: 'request'; id: string | number; method: string; params: unknown }
  /** A notification, or a response: never answered. */
  | { kind: 'silent' };

/** Characters as the protocol page counts them: code points (a lone surrogate is one). */
function characters(text: string): number {
  return Array.from(text).length;
}

/** An id the host can answer: a string of at most 128 characters, or a safe integer. */
export function usableId(id: unknown): id is string | number {
  if (typeof id === 'string') return characters(id) <= 128;
  return typeof id === 'number' && Number.isSafeInteger(id);
}

const usableMethod = (method: unknown): boolean =>
  typeof method === 'string' && characters(method) >= 1 && characters(method) <= 128;

function isObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof DeepNest)
  );
}

/** What the host must do with `payload`, judged from the protocol page. */
export function expectationOf(payload: Buffer): Expectation {
  let value: unknown;
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(payload);
    value = JSON.parse(text) as unknown;
  } catch {
    return { kind: 'null-reply' };
  }
  if (!isObject(value)) return { kind: 'null-reply' };
  const has = (key: string): boolean => Object.hasOwn(value, key);
  const v2 = value['jsonrpc'] === '2.0';
  if (has('method') && has('id')) {
    const { id, method } = value;
    if (!v2 || !usableId(id) || !usableMethod(method)) return { kind: 'null-reply' };
    return { kind: 'request', id, method: String(method), params: value['params'] };
  }
  if (has('method'))
    return v2 && usableMethod(value['method']) ? { kind: 'silent' } : { kind: 'null-reply' };
  if (has('error')) {
    const error = value['error'];
    const shaped =
      isObject(error) &&
      typeof error['message'] === 'string' &&
      Number.isSafeInteger(error['code']) &&
      (value['id'] === null || usableId(value['id']));
    return v2 && shaped ? { kind: 'silent' } : { kind: 'null-reply' };
  }
  if (has('result'))
    return v2 && usableId(value['id']) ? { kind: 'silent' } : { kind: 'null-reply' };
  return { kind: 'null-reply' };
}

/** One frame: its bytes (header included) and a line saying what it is, for failure messages. */
export interface FuzzFrame {
  readonly bytes: Buffer;
  readonly payload: Buffer;
  readonly what: string;
}

export function frameOf(payload: Buffer, what: string): FuzzFrame {
  const header = Buffer.alloc(4);
  header.writeUInt32LE(payload.length, 0);
  return { bytes: Buffer.concat([header, payload]), payload, what };
}

const textFrame = (text: string, what: string): FuzzFrame =>
  frameOf(Buffer.from(text, 'utf8'), what);

/** Names the host knows, so hostile params reach past "unknown server" into the handlers. */
export interface FrameContext {
  /** Servers the fuzz may call and list. */
  readonly servers: readonly string[];
  /** Servers the fuzz may also stop, restart, remove, revoke and replace. */
  readonly victims: readonly string[];
  /** Exposed tool names. */
  readonly tools: readonly string[];
}

/**
 * Methods that stop or restart a server: aimed at the victims, so the others keep serving the
 * fuzz's calls (all frames arrive at once; a restarted server has no tools for a while).
 */
const DISRUPTS: ReadonlySet<RequestMethod> = new Set([
  'servers/start',
  'servers/restart',
  'servers/stop',
  'servers/remove',
  'servers/add',
  'trust/revoke',
  'trust/forget',
]);

function fixtureParams(method: RequestMethod): unknown {
  const file = join(ROOT, 'protocol/fixtures', `${method.replaceAll('/', '-')}.json`);
  const fixture: unknown = JSON.parse(readFileSync(file, 'utf8'));
  return isObject(fixture) ? fixture['params'] : undefined;
}

const FIXTURE_PARAMS = new Map(METHODS.map((method) => [method, fixtureParams(method)]));

/** Every path to a member in `value` (objects and arrays), the root excluded. */
function pathsIn(
  value: unknown,
  prefix: Array<string | number> = [],
): Array<Array<string | number>> {
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => [
      [...prefix, index],
      ...pathsIn(item, [...prefix, index]),
    ]);
  }
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, item]) => [
    [...prefix, key],
    ...pathsIn(item, [...prefix, key]),
  ]);
}

function parentOf(root: unknown, path: ReadonlyArray<string | number>): unknown {
  let node = root;
  for (const key of path.slice(0, -1))
    node = isObject(node) || Array.isArray(node) ? Reflect.get(node, key) : undefined;
  return node;
}

function setOwn(target: object, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * The method's golden params with hostile edits: members replaced by values of every type,
 * removed, added, or the whole params replaced; names the host knows swapped in, so some calls
 * are valid and reach the handlers.
 */
export function hostileParams(rng: Rng, method: RequestMethod, context: FrameContext): unknown {
  const base: unknown = structuredClone(FIXTURE_PARAMS.get(method));
  if (rng.chance(0.1)) return hostileValue(rng);
  let params = base;
  if (isObject(params)) {
    for (const key of ['server', 'name']) {
      if (typeof params[key] === 'string' && rng.chance(0.6)) {
        const known =
          key === 'name' && method === 'tools/call'
            ? context.tools
            : DISRUPTS.has(method)
              ? context.victims
              : context.servers;
        if (known.length > 0) params[key] = rng.pick(known);
      }
    }
    // Without an approval a call reaches the policy gate's own paths (ask, allow, deny).
    if (method === 'tools/call' && rng.chance(0.6)) Reflect.deleteProperty(params, 'approval');
  }
  const edits = rng.chance(0.25) ? 0 : rng.between(1, 3);
  for (let n = 0; n < edits; n += 1) {
    const paths = pathsIn(params);
    const path = paths.length > 0 ? rng.pick(paths) : undefined;
    const parent = path === undefined ? undefined : parentOf(params, path);
    const key = path?.at(-1);
    switch (rng.int(4)) {
      case 0:
      case 1:
        if ((isObject(parent) || Array.isArray(parent)) && key !== undefined)
          setOwn(parent, key, hostileValue(rng));
        break;
      case 2:
        if (isObject(parent) && typeof key === 'string') Reflect.deleteProperty(parent, key);
        break;
      default:
        if (isObject(params)) setOwn(params, hostileString(rng), hostileValue(rng));
        else params = {};
        break;
    }
  }
  if (method === 'servers/add' && isObject(params))
    params['command'] = unresolvable(params['command']);
  return params;
}

/**
 * A `servers/add` command that can never resolve: a bare name (so only PATH is searched, and the
 * host's PATH here is an empty folder) that no program has. The fuzz must never run anything.
 */
function unresolvable(command: unknown): unknown {
  if (typeof command !== 'string') return command;
  return `switchyard-fuzz-absent-${command.replace(/[/\\]/g, '_')}`;
}

function hostileId(rng: Rng, index: number): unknown {
  switch (rng.int(6)) {
    case 0:
      // Usable but unusual, and shared between cases: duplicates of each other.
      return rng.pick([
        0,
        -0,
        -1,
        Number.MAX_SAFE_INTEGER,
        '',
        '__proto__',
        'x'.repeat(128),
        '😀'.repeat(128),
      ]);
    case 1:
      // Unusable: the request has no id the host can answer to.
      return rng.pick([null, 1.5, 2 ** 53, -(2 ** 53), 1e308, 'x'.repeat(129), true, {}, [], [1]]);
    case 2:
      return index + 1_000_000;
    default:
      return `f${index}`;
  }
}

/** The frames of case `index` (one or two, always whole: framing stays in step). */
export function frameCase(rng: Rng, index: number, context: FrameContext): FuzzFrame[] {
  const id = rng.chance(0.8)
    ? rng.chance(0.5)
      ? `f${index}`
      : index + 1_000_000
    : hostileId(rng, index);
  const request = (method: string, params: unknown, requestId: unknown = id): string =>
    jsonText({
      jsonrpc: '2.0',
      id: requestId,
      method,
      ...(params === undefined ? {} : { params }),
    });
  const roll = rng.int(100);
  if (roll < 40) {
    const method = METHODS[index % METHODS.length] ?? 'servers/list';
    return [
      textFrame(
        request(method, hostileParams(rng, method, context)),
        `${method} with hostile params`,
      ),
    ];
  }
  if (roll < 50) {
    // A known tool with hostile arguments: past the name lookup into the policy gate, the
    // approval hash, the audit log and, for allowed tools, the server's transport.
    const args: Record<string, unknown> = {};
    for (let n = rng.between(1, 3); n > 0; n -= 1) {
      const value = rng.chance(0.3)
        ? new DeepNest(
            rng.pick([63, 64, 1_000, 5_000, 20_000]),
            rng.chance(0.5) ? 'array' : 'object',
          )
        : hostileValue(rng);
      setOwn(args, hostileString(rng), value);
    }
    const name = context.tools.length > 0 ? rng.pick(context.tools) : 'fx__ok';
    return [
      textFrame(
        request('tools/call', { name, arguments: args }),
        `tools/call ${name} with hostile arguments`,
      ),
    ];
  }
  if (roll < 56) {
    const method = rng.pick(METHODS);
    const valid = Buffer.from(request(method, hostileParams(rng, method, context)), 'utf8');
    return [frameOf(mutateBytes(rng, valid), `${method} request with mutated bytes`)];
  }
  if (roll < 63) {
    // The envelope's members with the wrong type or value.
    const envelope: Record<string, unknown> = { jsonrpc: '2.0', id, method: 'servers/list' };
    setOwn(envelope, rng.pick(['jsonrpc', 'id', 'method', 'params']), hostileValue(rng));
    if (rng.chance(0.3)) Reflect.deleteProperty(envelope, rng.pick(['jsonrpc', 'id', 'method']));
    return [textFrame(jsonText(envelope), 'an envelope with a wrong member')];
  }
  if (roll < 69) return [textFrame(jsonText(hostileValue(rng)), 'valid JSON that is not JSON-RPC')];
  if (roll < 74) {
    const bytes = rng.pick([
      Buffer.alloc(0),
      rng.bytes(rng.int(64)),
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":1,"method":"'),
        rng.pick(INVALID_UTF8),
        Buffer.from('"}'),
      ]),
      Buffer.from('\ufeff{"jsonrpc":"2.0","id":"bom","method":"servers/list"}'),
      Buffer.from('{"jsonrpc":"2.0","id":"a","method":"servers/list"} trailing'),
    ]);
    return [frameOf(bytes, 'bytes that are not UTF-8 JSON')];
  }
  if (roll < 79) {
    const response = rng.chance(0.5)
      ? { jsonrpc: '2.0', id, result: hostileValue(rng) }
      : {
          jsonrpc: '2.0',
          id,
          error: { code: rng.pick(HOSTILE_NUMBERS), message: hostileString(rng) },
        };
    return [textFrame(jsonText(response), 'a response from the extension')];
  }
  if (roll < 86) {
    const method = rng.pick([
      'notifications/cancelled',
      'notifications/cancelled',
      'notifications/initialized',
      hostileString(rng),
    ]);
    const target = rng.chance(0.7)
      ? rng.pick([`f${index - 1}`, index - 1 + 1_000_000, `f${index - 2}`])
      : hostileValue(rng);
    const params = rng.chance(0.8)
      ? { requestId: target, reason: hostileString(rng) }
      : hostileValue(rng);
    return [
      textFrame(
        jsonText({ jsonrpc: '2.0', method, params }),
        `notification ${method.slice(0, 40)}`,
      ),
    ];
  }
  if (roll < 91) {
    const method = rng.pick(METHODS);
    return [
      textFrame(
        request(method, hostileParams(rng, method, context)),
        `${method}, first of a duplicate id`,
      ),
      textFrame(
        request(method, hostileParams(rng, method, context)),
        `${method}, second of a duplicate id`,
      ),
    ];
  }
  if (roll < 99 || rng.chance(0.8)) {
    const method = rng.pick([
      'tools/list_changed',
      'initialize',
      'host/Hello',
      'servers/',
      '/',
      'x'.repeat(128),
      hostileString(rng),
    ]);
    return [textFrame(request(method, hostileValue(rng)), 'an unknown method')];
  }
  // 1 MiB + 1 bytes: more than the host may send, well under what it accepts.
  const filler = 1_048_577 - Buffer.byteLength(request('profiles/resolve', { url: '' }), 'utf8');
  return rng.chance(0.5)
    ? [textFrame(request('profiles/resolve', { url: 'x'.repeat(filler) }), 'a 1 MiB + 1 request')]
    : [frameOf(Buffer.alloc(1_048_577, 0x7b), 'a 1 MiB + 1 frame of "{"')];
}
