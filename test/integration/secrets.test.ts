import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  EVERYTHING_SERVER,
  HOST_BUNDLE,
  HOST_NODE,
  HostHarness,
  approveAll,
  makeHome,
  unwrap,
} from './host-harness';

// Issue 11 item 4 through the real bundled host: `switchyard secret` with the file store
// forced, and a stdio server whose "env": {"TOKEN": "${TOKEN}"} starts with the stored value,
// or fails by name when it is set nowhere. Dangerous direction: a value on an argv, in output,
// or a server started with the variable silently "".

const SECRET = 'ghp_storedValue0000000000000000000000000';

function cli(home: string, args: string[], stdin = '', extraEnv: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(HOST_NODE, [HOST_BUNDLE, 'secret', ...args], {
    env: {
      PATH: process.env['PATH'],
      HOME: process.env['HOME'],
      SWITCHYARD_HOME: home,
      SWITCHYARD_SECRET_STORE: 'file',
      ...extraEnv,
    },
    input: stdin,
    encoding: 'utf8',
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

describe('switchyard secret (file store)', () => {
  it('sets from stdin, lists names only, deletes; the file is 0600 and nothing echoes the value', () => {
    const home = makeHome({ mcpServers: {} });
    const set = cli(home, ['set', 'GITHUB_TOKEN'], `${SECRET}\n`);
    expect(set).toMatchObject({ code: 0 });
    expect(set.out).toContain('Stored GITHUB_TOKEN in');
    expect(cli(home, ['set', 'OTHER'], 'x')).toMatchObject({ code: 0 });

    const file = join(home, 'secrets.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      version: 1,
      secrets: { 'var:GITHUB_TOKEN': SECRET, 'var:OTHER': 'x' },
    });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);

    const list = cli(home, ['list']);
    expect(list).toMatchObject({ code: 0, out: 'GITHUB_TOKEN\nOTHER\n' });
    const json = cli(home, ['list', '--json']);
    expect(JSON.parse(json.out)).toEqual({
      store: { kind: 'file', where: `${file} (mode 0600)`, note: 'SWITCHYARD_SECRET_STORE=file' },
      names: ['GITHUB_TOKEN', 'OTHER'],
    });
    for (const run of [set, list, json]) expect(run.out + run.err).not.toContain(SECRET);

    expect(cli(home, ['delete', 'OTHER'])).toMatchObject({ code: 0 });
    expect(cli(home, ['delete', 'OTHER'])).toMatchObject({
      code: 1,
      err: expect.stringContaining('OTHER is not set') as unknown,
    });
    expect(cli(home, ['list']).out).toBe('GITHUB_TOKEN\n');
  });

  it.each([
    [['set'], 2, /name the variable/],
    [['set', '1BAD'], 2, /not a variable name/],
    [['set', 'TOKEN=abc'], 2, /on stdin, not on the command line/],
    [['set', 'TOKEN', 'abc'], 2, /on stdin, not on the command line/],
    [['frobnicate'], 2, /unknown subcommand/],
    [[], 2, /set, list or delete/],
  ])('refuses %j with exit %i', (args, code, message) => {
    const home = makeHome({ mcpServers: {} });
    const run = cli(home, args);
    expect(run.code).toBe(code);
    expect(run.err).toMatch(message);
    expect(run.err).toContain('usage: switchyard secret set NAME');
  });

  it('refuses an empty value and a group-readable file, storing nothing', () => {
    const home = makeHome({ mcpServers: {} });
    expect(cli(home, ['set', 'A'], '\n')).toMatchObject({
      code: 1,
      err: expect.stringMatching(/value is empty; nothing was stored/) as unknown,
    });
    expect(cli(home, ['set', 'A'], 'v')).toMatchObject({ code: 0 });
    if (process.platform === 'win32') return;
    spawnSync('chmod', ['644', join(home, 'secrets.json')]);
    const refused = cli(home, ['list']);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/can be read or written by other users \(mode 0644\)/);
  });

  it('says when SWITCHYARD_SECRET_STORE is not a known value', () => {
    const home = makeHome({ mcpServers: {} });
    expect(cli(home, ['list'], '', { SWITCHYARD_SECRET_STORE: 'vault' })).toMatchObject({
      code: 1,
      err: expect.stringMatching(/SWITCHYARD_SECRET_STORE is 'vault'/) as unknown,
    });
  });
});

interface CallResult {
  content: Array<{ type: string; text?: string }>;
}
interface Summary {
  name: string;
  status: { state: string; reason?: string; message?: string };
}

describe('a server whose env refers to ${TOKEN}', () => {
  const entry = {
    command: process.execPath,
    args: [EVERYTHING_SERVER, 'stdio'],
    env: { TOKEN: '${TOKEN}' },
  };

  it('starts with the value from the store, and fails by name when it is set nowhere', async () => {
    const home = makeHome({ mcpServers: { everything: entry } });
    approveAll(home);
    const env = { SWITCHYARD_SECRET_STORE: 'file', TOKEN: undefined };

    // Set nowhere: failed, naming the variable and both fixes; nothing is spawned.
    let host = new HostHarness(home, { env });
    try {
      await host.hello();
      const [server] = (await host.settled()) as Summary[];
      expect(server?.status).toEqual({
        state: 'failed',
        reason: 'missing-variable',
        message:
          "'everything' needs TOKEN, which is not set: set it with `switchyard secret set TOKEN`, or export it before starting the browser.",
      });
    } finally {
      await host.close();
    }

    expect(cli(home, ['set', 'TOKEN'], `${SECRET}\n`)).toMatchObject({ code: 0 });
    host = new HostHarness(home, { env });
    try {
      await host.hello();
      const [server] = (await host.settled()) as Summary[];
      expect(server?.status.state).toBe('running');
      const result = await host.call<CallResult>('tools/call', {
        name: 'everything__get-env',
        arguments: {},
      });
      const text = unwrap(result.content[0]?.text ?? '');
      // The tool's answer is redacted by the host like any server text; what matters is that
      // TOKEN reached the server with a value, which the redaction marker (or the value) shows.
      expect(text).toMatch(/"TOKEN": "(\[REDACTED:[a-z-]+\]|ghp_storedValue0+)"/);
      expect(host.stderr.join('')).not.toContain(SECRET);
    } finally {
      await host.close();
    }

    // An exported TOKEN wins over the stored one.
    host = new HostHarness(home, {
      env: { SWITCHYARD_SECRET_STORE: 'file', TOKEN: 'exported-wins' },
    });
    try {
      await host.hello();
      await host.settled();
      const result = await host.call<CallResult>('tools/call', {
        name: 'everything__get-env',
        arguments: {},
      });
      expect(unwrap(result.content[0]?.text ?? '')).toContain('"TOKEN": "exported-wins"');
    } finally {
      await host.close();
    }
  });
});

describe('switchyard doctor and secrets', () => {
  it('says which store is in use and which ${VAR} references resolve nowhere', () => {
    const home = makeHome({
      mcpServers: {
        gh: {
          command: process.execPath,
          args: [EVERYTHING_SERVER, 'stdio'],
          env: { A: '${TOKEN}', B: '${UNSET_ONE}', C: '${HOME}', D: '${OPT:-x}' },
          disabled: true,
        },
      },
    });
    expect(cli(home, ['set', 'TOKEN'], SECRET)).toMatchObject({ code: 0 });
    const run = spawnSync(HOST_NODE, [HOST_BUNDLE, 'doctor', '--json'], {
      env: {
        PATH: process.env['PATH'],
        HOME: process.env['HOME'],
        SWITCHYARD_HOME: home,
        SWITCHYARD_SECRET_STORE: 'file',
      },
      encoding: 'utf8',
    });
    const report = JSON.parse(run.stdout) as {
      secrets: { store: { kind: string }; variables: unknown[] };
      problems: string[];
    };
    expect(report.secrets.store.kind).toBe('file');
    expect(report.secrets.variables).toEqual([
      { server: 'gh', fromEnv: ['HOME'], fromStore: ['TOKEN'], unresolved: ['UNSET_ONE'] },
    ]);
    expect(report.problems).toContain(
      "'gh' needs UNSET_ONE, which is not set: set it with `switchyard secret set UNSET_ONE`, or export it before starting the browser.",
    );
    expect(run.stdout).not.toContain(SECRET);
    const text = spawnSync(HOST_NODE, [HOST_BUNDLE, 'doctor'], {
      env: {
        PATH: process.env['PATH'],
        HOME: process.env['HOME'],
        SWITCHYARD_HOME: home,
        SWITCHYARD_SECRET_STORE: 'file',
      },
      encoding: 'utf8',
    }).stdout;
    expect(text).toContain(`Secrets:         ${join(home, 'secrets.json')} (mode 0600)`);
    expect(text).toContain('gh: HOME (environment), TOKEN (secret store), UNSET_ONE (NOT SET)');
  });
});
