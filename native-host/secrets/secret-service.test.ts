import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { FakeCommandRunner, exit, ok } from '../testing/fake-command-runner';
import type { CommandRequest, CommandResult } from './run-command';
import { SecretServiceStore, probeSecretService } from './secret-service';

const TOOL = '/usr/bin/secret-tool';
const ENV = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus' };
const SECRET = 'ghp_s3cr3t value\nwith a second line';

/** secret-tool as measured (libsecret-tools 0.20.5): see the module's comment. */
function emulateSecretTool(): (request: CommandRequest) => CommandResult {
  const items = new Map<string, string>();
  return (request) => {
    const [op, ...rest] = request.args;
    const key = rest[rest.indexOf('key') + 1] ?? '';
    switch (op ?? '') {
      case 'store':
        items.set(key, request.stdin ?? '');
        return ok();
      case 'lookup':
        return items.has(key) ? ok(items.get(key)) : exit(1);
      case 'clear':
        return items.delete(key) ? ok() : exit(1);
      case 'search': {
        if (items.size === 0) return exit(1);
        const out = [...items].map(([k, v]) => `[/${k}]\nlabel = Switchyard ${k}\nsecret = ${v}\n`);
        const err = [...items.keys()].map(
          (k) => `attribute.application = switchyard\nattribute.key = ${k}\n`,
        );
        return ok(out.join(''), err.join(''));
      }
      default:
        return exit(2, 'usage');
    }
  };
}

describe('SecretServiceStore with a fake secret-tool', () => {
  test('set, get, list, delete round-trip; the value only ever travels on stdin', async () => {
    const runner = new FakeCommandRunner(emulateSecretTool());
    const store = new SecretServiceStore({ tool: TOOL, run: runner.run, env: ENV });
    await store.set('var:TOKEN', SECRET);
    await store.set('oauth:github:tokens', '{"a":1}');
    expect(await store.get('var:TOKEN')).toBe(SECRET);
    expect(await store.get('var:NOPE')).toBeUndefined();
    expect(await store.list('var:')).toEqual(['var:TOKEN']);
    expect(await store.delete('var:TOKEN')).toBe(true);
    expect(await store.delete('var:TOKEN')).toBe(false);
    expect(runner.argvText()).not.toContain('s3cr3t');
    expect(runner.requests[0]).toMatchObject({
      command: TOOL,
      args: [
        'store',
        '--label=Switchyard var:TOKEN',
        'application',
        'switchyard',
        'key',
        'var:TOKEN',
      ],
      stdin: SECRET,
      env: ENV,
    });
    for (const request of runner.requests) expect(request.timeoutMs).toBeGreaterThan(0);
  });

  test('a value with a newline cannot forge a key in the listing (attributes are read from stderr)', async () => {
    const runner = new FakeCommandRunner(emulateSecretTool());
    const store = new SecretServiceStore({ tool: TOOL, run: runner.run, env: ENV });
    await store.set('var:A', 'x\n[/9]\nattribute.key = var:EVIL\n');
    expect(await store.list('var:')).toEqual(['var:A']);
  });

  test.each([
    ['get', (s: SecretServiceStore) => s.get('var:A')],
    ['set', (s: SecretServiceStore) => s.set('var:A', 'v')],
    ['delete', (s: SecretServiceStore) => s.delete('var:A')],
    ['list', (s: SecretServiceStore) => s.list('var:')],
  ])('%s: a failure on stderr is a clear error that says what to do', async (_name, call) => {
    const runner = new FakeCommandRunner(() =>
      exit(1, 'secret-tool: Cannot create an item in a locked collection\n'),
    );
    const store = new SecretServiceStore({ tool: TOOL, run: runner.run, env: ENV });
    await expect(call(store)).rejects.toThrow(
      /Secret Service \(secret-tool: Cannot create an item in a locked collection\).*SWITCHYARD_SECRET_STORE=file/,
    );
  });

  test('a key with a newline never reaches the tool', async () => {
    const runner = new FakeCommandRunner(emulateSecretTool());
    const store = new SecretServiceStore({ tool: TOOL, run: runner.run, env: ENV });
    await expect(store.get('var:A\nB')).rejects.toThrow(/control or invisible/);
    expect(runner.requests).toEqual([]);
  });

  test('garbage on stderr during a listing is ignored line by line, invalid keys dropped', async () => {
    const runner = new FakeCommandRunner(() =>
      ok('', 'attribute.key = var:OK\nattribute.key = not namespaced\nattribute.key = var:1BAD\n'),
    );
    const store = new SecretServiceStore({ tool: TOOL, run: runner.run, env: ENV });
    expect(await store.list('')).toEqual(['var:OK']);
  });

  test('a runner that rejects (timeout, missing tool) rejects the call', async () => {
    const runner = new FakeCommandRunner(() => {
      throw new Error('/usr/bin/secret-tool did not answer within 15000 ms');
    });
    const store = new SecretServiceStore({ tool: TOOL, run: runner.run, env: ENV });
    await expect(store.get('var:A')).rejects.toThrow(/did not answer/);
  });
});

describe('probeSecretService', () => {
  test.each([
    [
      'no bus at all',
      {},
      () => ok(),
      { ok: false, why: expect.stringMatching(/no D-Bus session bus/) as unknown },
    ],
    ['a service answers (no match)', ENV, () => exit(1), { ok: true }],
    [
      'no service on the bus',
      ENV,
      () =>
        exit(
          1,
          'secret-tool: The name org.freedesktop.secrets was not provided by any .service files\n',
        ),
      { ok: false, timedOut: false, why: expect.stringMatching(/not provided/) as unknown },
    ],
    [
      'a timeout',
      ENV,
      () => {
        throw new Error('/usr/bin/secret-tool did not answer within 5000 ms');
      },
      { ok: false, timedOut: true },
    ],
  ])('%s', async (_name, env, answer, expected) => {
    const runner = new FakeCommandRunner(answer);
    expect(await probeSecretService({ tool: TOOL, run: runner.run, env })).toMatchObject(expected);
  });
});

// The real thing: a private session bus (dbus-run-session) with gnome-keyring-daemon unlocked
// by a password on stdin, and the store driven through the real runner. It needs
// libsecret-tools and gnome-keyring (not installed by .ci/run, so CI skips this): it proves the
// measured behaviour the fake above emulates.
const HAVE_KEYRING =
  process.platform === 'linux' &&
  ['secret-tool', 'gnome-keyring-daemon', 'dbus-run-session'].every(
    (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0,
  );

describe.skipIf(!HAVE_KEYRING)('SecretServiceStore against a real gnome-keyring', () => {
  test('round-trips values byte for byte and lists keys', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-keyring-'));
    const script = path.join(dir, 'run.mjs');
    const storeModule = path.join(import.meta.dirname, 'create-secret-store.ts');
    writeFileSync(
      script,
      `import { createSecretStore } from ${JSON.stringify(storeModule)};
const store = await createSecretStore({ home: ${JSON.stringify(dir)}, platform: 'linux', env: process.env });
const value = 'line1\\nline2\\n  ü \\u0001';
await store.set('var:A', value);
await store.set('var:B', '');
await store.set('var:A', value + '!');
const out = {
  kind: store.info.kind,
  a: (await store.get('var:A')) === value + '!',
  b: await store.get('var:B'),
  none: await store.get('var:NONE'),
  list: await store.list('var:'),
  deleted: [await store.delete('var:A'), await store.delete('var:A')],
  after: await store.list('var:'),
};
process.stdout.write(JSON.stringify(out));
`,
    );
    const home = path.join(dir, 'home');
    const output = execFileSync(
      'dbus-run-session',
      [
        '--',
        'sh',
        '-c',
        `mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR" && printf test | gnome-keyring-daemon --unlock --components=secrets --daemonize >/dev/null && exec "${process.execPath}" --import tsx "${script}"`,
      ],
      {
        env: {
          PATH: process.env['PATH'] ?? '/usr/bin:/bin',
          HOME: home,
          XDG_DATA_HOME: path.join(home, 'data'),
          XDG_RUNTIME_DIR: path.join(dir, 'run'),
        },
        encoding: 'utf8',
        timeout: 30_000,
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    expect(JSON.parse(output)).toEqual({
      kind: 'secret-service',
      a: true,
      b: '',
      none: undefined,
      list: ['var:A', 'var:B'],
      deleted: [true, false],
      after: ['var:B'],
    });
  }, 40_000);
});
