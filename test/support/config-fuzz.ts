import {
  DeepNest,
  INVALID_UTF8,
  hostileString,
  hostileValue,
  jsonText,
  mutateBytes,
  type Rng,
} from './fuzz';

/**
 * Mutated config.json files for the seeded config fuzz (issue 13; native-host/config/
 * load.fuzz.test.ts, native-host/host/setup.fuzz.test.ts, test/integration/config-fuzz.test.ts),
 * and what a strict reader makes of each, worked out from docs/decisions/0002 and RFC 8259
 * rather than from the loader.
 */

/**
 * A valid config.json with what users write: servers with args, env, timeouts, a disabled one,
 * tool policy and a profile. Commands are `command` (absolute, so the setup resolves them);
 * `serverArgs`, when given, replaces every server's args (to run a real fixture).
 */
export function baseConfig(
  command: string,
  serverArgs?: readonly string[],
): Record<string, unknown> {
  const args = (own: string[]): string[] => (serverArgs === undefined ? own : [...serverArgs]);
  return {
    mcpServers: {
      files: {
        command,
        args: args(['server.js', '--root', '/tmp']),
        env: { TOKEN: '${TOKEN}' },
        timeout: 10,
      },
      memory: { command, args: args(['memory.js']), prefix: 'mem', toolTimeout: 30 },
      off: { command, args: args([]), disabled: true },
    },
    toolPolicy: { 'files__*': 'ask', memory__read: 'allow' },
    profiles: [{ id: 'gh', name: 'GitHub', match: ['https://github.com/*'], servers: ['files'] }],
  };
}

const ALPHABET = ['{', '}', '[', ']', '"', ',', ':', ' ', '\n', '\\', '/', '-', '0', '.', 'e', 'x'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every path to a member of `value`, the root excluded. */
function pathsIn(
  value: unknown,
  prefix: Array<string | number> = [],
): Array<Array<string | number>> {
  if (Array.isArray(value)) {
    return value.flatMap((item, i) => [[...prefix, i], ...pathsIn(item, [...prefix, i])]);
  }
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, item]) => [
    [...prefix, key],
    ...pathsIn(item, [...prefix, key]),
  ]);
}

/** The base with one member given a hostile value (a wrong type, a huge string, deep nesting). */
function withHostileMember(rng: Rng, base: Record<string, unknown>): string {
  const copy: Record<string, unknown> = structuredClone(base);
  const path = rng.pick(pathsIn(copy));
  let parent: unknown = copy;
  for (const key of path.slice(0, -1)) {
    parent = isObject(parent) || Array.isArray(parent) ? Reflect.get(parent, key) : undefined;
  }
  const key = path.at(-1);
  if ((isObject(parent) || Array.isArray(parent)) && key !== undefined) {
    const value = rng.chance(0.15)
      ? new DeepNest(rng.pick([63, 64, 65, 1_000]), rng.chance(0.5) ? 'array' : 'object')
      : rng.chance(0.5)
        ? hostileValue(rng, { large: false })
        : hostileString(rng, { large: false });
    Object.defineProperty(parent, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const compact = jsonText(copy);
  // Pretty-printed like a hand-edited file, unless deep (its indentation would run to megabytes).
  const deep = /\[{20}|(\{"a":){20}/.test(compact);
  if (rng.chance(0.5) || deep || compact.length > 20_000) return compact;
  return JSON.stringify(JSON.parse(compact), null, 2);
}

/** Text edits on the pretty-printed base: what an editor, a half-finished save or a tool does. */
function edit(rng: Rng, text: string): string {
  const at = rng.int(text.length + 1);
  const lineStart = text.lastIndexOf('\n', at) + 1;
  switch (rng.int(8)) {
    case 0:
      return text.slice(0, at);
    case 1:
      return text.slice(0, at) + rng.pick(ALPHABET) + text.slice(at);
    case 2:
      return text.slice(0, at) + text.slice(at + 1);
    case 3:
      return `${text.slice(0, lineStart)}${rng.pick(['// a comment', '/* a comment */', '# a comment'])}\n${text.slice(lineStart)}`;
    case 4: {
      // A trailing comma before a closing bracket.
      const close = text.slice(at).search(/\s*[}\]]/);
      return close === -1 ? text : `${text.slice(0, at + close)},${text.slice(at + close)}`;
    }
    case 5: {
      // A duplicate key: the same member written again, before or after the original.
      const member = rng.pick([
        '"command": "/bin/false", ',
        '"args": [], ',
        '"disabled": false, ',
        '"mcpServers": {}, ',
      ]);
      const open = text.indexOf('{', at);
      return open === -1 ? text : `${text.slice(0, open + 1)}${member}${text.slice(open + 1)}`;
    }
    case 6:
      return text.replace(/"[^"]*"/, (quoted) =>
        rng.chance(0.5)
          ? quoted.replace('"', "'")
          : `"${'y'.repeat(rng.pick([100, 100, 100, 70_000]))}"`,
      );
    default:
      return text.slice(0, at) + String.fromCharCode(rng.int(0x20)) + text.slice(at);
  }
}

/** Case `rng`'s config.json bytes, mutated from `baseConfig`. */
export function mutatedConfig(rng: Rng, base: Record<string, unknown>): Buffer {
  const pretty = JSON.stringify(base, null, 2);
  // Rarely, one byte over the size cap (a few cases per run: each is a megabyte to build).
  if (rng.chance(0.002)) return Buffer.from(`{"pad": "${'z'.repeat(1_048_566)}"}`);
  switch (rng.int(10)) {
    case 0:
      return Buffer.from(withHostileMember(rng, base), 'utf8');
    case 1:
      return mutateBytes(rng, Buffer.from(pretty, 'utf8'));
    case 2: {
      const bytes = Buffer.from(pretty, 'utf8');
      const at = rng.int(bytes.length);
      return Buffer.concat([bytes.subarray(0, at), rng.pick(INVALID_UTF8), bytes.subarray(at)]);
    }
    case 3:
      // Thunks: only the one picked is built.
      return rng.pick<() => Buffer>([
        () => Buffer.from(`\ufeff${pretty}`, 'utf8'),
        () => Buffer.from(`\ufeff\ufeff${pretty}`, 'utf8'),
        () => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(pretty, 'utf16le')]),
        () => Buffer.from(''),
        () => Buffer.from(' \n\t'),
        () => Buffer.from('null'),
        () => Buffer.from('[]'),
        () => Buffer.from(`{"mcpServers": ${'['.repeat(100_000)}`),
      ])();
    default: {
      let text = pretty;
      for (let n = rng.between(1, 3); n > 0; n -= 1) text = edit(rng, text);
      return Buffer.from(text, 'utf8');
    }
  }
}

/** Lines as an editor counts them: LF, CRLF and a lone CR each end one. */
export function lineCount(text: string): number {
  return text.split(/\r\n|\r|\n/).length;
}

/** What a strict reader makes of a file: unusable whole, not JSON (with where), or a value. */
export type StrictRead =
  | { kind: 'unusable' }
  | { kind: 'not-json'; lines: number }
  | { kind: 'json'; value: unknown; lines: number };

/**
 * A config file read by the rules of docs/decisions/0002-located-config-errors.md: UTF-8 (a BOM
 * ignored), at most 1 MiB, strict JSON nested at most 64 levels.
 */
export function strictRead(bytes: Buffer, maxBytes: number, maxDepth: number): StrictRead {
  if (bytes.length > maxBytes) return { kind: 'unusable' };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { kind: 'unusable' };
  }
  // The decoder drops one BOM; trim() counts a second one as white space, as the loader does.
  if (text.trim() === '') return { kind: 'unusable' };
  const lines = lineCount(text);
  try {
    const value: unknown = JSON.parse(text);
    return depthOf(value) > maxDepth ? { kind: 'not-json', lines } : { kind: 'json', value, lines };
  } catch {
    return { kind: 'not-json', lines };
  }
}

function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, depth] = item;
    if (typeof node !== 'object' || node === null) continue;
    deepest = Math.max(deepest, depth);
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}
