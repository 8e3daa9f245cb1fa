import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_EXTENSION_ID, chromiumOrigin } from '../../protocol/identity';
import { PROTOCOL_VERSION } from '../../protocol/methods';
import { CACHE_DIR_NAME, MAIN_BUNDLE_FILE } from '../../native-host/shared/code-cache';
import { endOfLifeNote, nodeSupport } from '../../native-host/shared/node-support';
import { FIXTURE_SERVER, HOST_BUNDLE, HOST_NODE } from './host-harness';

// The real bundle installs itself the way a user would (`switchyard install --browser chromium
// --user-data-dir DIR`), then the launcher it wrote is run the way Chromium runs it: a bare
// environment, the launcher's folder as cwd, the caller origin as argument, native-messaging
// frames on stdin. HOME and SWITCHYARD_HOME point into a temporary folder.

const ORIGIN = chromiumOrigin(DEV_EXTENSION_ID);

interface Machine {
  root: string;
  home: string;
  sy: string;
  profile: string;
  bin: string;
  env: NodeJS.ProcessEnv;
}

function makeMachine(): Machine {
  const root = mkdtempSync(path.join(tmpdir(), 'switchyard-it-install-'));
  const home = path.join(root, 'home');
  const sy = path.join(root, "sy home 'quoted' $x");
  const profile = path.join(root, 'chromium profile');
  const bin = path.join(root, 'login bin');
  for (const dir of [home, profile, bin]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  // A login shell whose PATH has a folder the browser's bare environment lacks (like nvm's).
  const shell = path.join(root, 'fake-login-shell');
  writeFileSync(
    shell,
    `#!/bin/sh\nprintf '\\n%s%s%s\\n' __SWITCHYARD_PATH_BEGIN__ '${bin}':"$PATH" __SWITCHYARD_PATH_END__\n`,
    { mode: 0o755 },
  );
  // A server command only that PATH finds.
  writeFileSync(
    path.join(bin, 'sy-login-only-server'),
    `#!/bin/sh\nexec '${process.execPath}' '${FIXTURE_SERVER}' "$@"\n`,
    { mode: 0o755 },
  );
  return {
    root,
    home,
    sy,
    profile,
    bin,
    // SUDO_USER: install refuses to run under sudo; a test run under sudo is still one user.
    env: { ...process.env, HOME: home, SWITCHYARD_HOME: sy, SHELL: shell, SUDO_USER: undefined },
  };
}

function cli(m: Machine, args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(HOST_NODE, [HOST_BUNDLE, ...args], {
    env: { ...m.env, ...env },
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const install = (m: Machine, ...extra: string[]) =>
  cli(m, ['install', '--browser', 'chromium', '--user-data-dir', m.profile, ...extra]);

const manifestPath = (m: Machine) =>
  path.join(m.profile, 'NativeMessagingHosts', 'com.switchyard.host.json');
const launcherPath = (m: Machine) => path.join(m.sy, 'host', 'switchyard-host');
const mode = (file: string) => statSync(file).mode & 0o777;

/** Frames written here, independently of the host's codec. */
function frame(value: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  const header = Buffer.alloc(4);
  header.writeUInt32LE(body.length, 0);
  return Buffer.concat([header, body]);
}

/**
 * Runs the launcher as Chromium does and sends `requests` one after another, each after the
 * previous reply; returns the replies and the exit code after stdin closes.
 */
async function runLauncher(
  m: Machine,
  requests: Array<{ method: string; params?: unknown }>,
  env: NodeJS.ProcessEnv = { PATH: '/usr/bin:/bin' },
): Promise<{ replies: Array<Record<string, unknown>>; code: number | null; stderr: string }> {
  const launcher = launcherPath(m);
  const child = spawn(launcher, [ORIGIN], {
    cwd: path.dirname(launcher),
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const replies: Array<Record<string, unknown>> = [];
  let buffer = Buffer.alloc(0);
  let waiting: (() => void) | null = null;
  child.stdout.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    while (buffer.length >= 4 && buffer.length >= 4 + buffer.readUInt32LE(0)) {
      const length = buffer.readUInt32LE(0);
      const message = JSON.parse(buffer.subarray(4, 4 + length).toString('utf8')) as Record<
        string,
        unknown
      >;
      buffer = buffer.subarray(4 + length);
      if ('id' in message) {
        replies.push(message);
        waiting?.();
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  for (const [index, request] of requests.entries()) {
    const replied = new Promise<void>((resolve, reject) => {
      waiting = resolve;
      const timer = setTimeout(() => {
        reject(new Error(`no reply to ${request.method}; stderr:\n${stderr}`));
      }, 20_000);
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`the host exited before answering ${request.method}; stderr:\n${stderr}`));
      });
    });
    child.stdin.write(frame({ jsonrpc: '2.0', id: index + 1, ...request }));
    await replied;
  }
  child.stdin.end();
  return { replies, code: await exited, stderr };
}

const hello = {
  method: 'host/hello',
  params: { protocolVersion: PROTOCOL_VERSION, client: { name: 'install-test', version: '0' } },
};

describe('switchyard install (real bundle)', () => {
  let m: Machine;
  beforeAll(() => {
    m = makeMachine();
  });
  afterAll(() => {
    rmSync(m.root, { recursive: true, force: true });
  });

  it('installs into a Chromium profile and prints what it wrote', () => {
    const result = install(m);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`wrote  ${manifestPath(m)}`);
    expect(JSON.parse(readFileSync(manifestPath(m), 'utf8'))).toEqual({
      name: 'com.switchyard.host',
      description: expect.any(String) as unknown,
      path: launcherPath(m),
      type: 'stdio',
      allowed_origins: [ORIGIN],
    });
    const launcher = readFileSync(launcherPath(m), 'utf8');
    expect(launcher).toContain(`exec '${HOST_NODE}' '--max-semi-space-size=2'`);
    // Buffer.equals: a deep toEqual over a megabyte takes seconds.
    for (const file of ['switchyard.cjs', MAIN_BUNDLE_FILE, `${MAIN_BUNDLE_FILE}.map`]) {
      const copied = readFileSync(path.join(m.sy, 'host', file));
      expect(copied.equals(readFileSync(path.join(path.dirname(HOST_BUNDLE), file)))).toBe(true);
    }
    expect(mode(manifestPath(m))).toBe(0o644);
    expect(mode(launcherPath(m))).toBe(0o755);
    expect(mode(path.join(m.sy, 'install.json'))).toBe(0o600);
    expect(mode(path.join(m.sy, 'host'))).toBe(0o700);
  });

  it('runs: the launcher answers host/hello over native messaging in a bare environment', async () => {
    const { replies, code } = await runLauncher(m, [hello], {});
    expect(replies[0]).toMatchObject({
      id: 1,
      result: { protocolVersion: PROTOCOL_VERSION, home: m.sy },
    });
    expect(code).toBe(0);
  });

  it("leaves the host's code cache in its own folder, and the next start uses it", async () => {
    const cache = path.join(m.sy, 'host', CACHE_DIR_NAME);
    const hostCaches = () => readdirSync(cache).filter((name) => name.includes('-host-'));
    expect(mode(cache)).toBe(0o700);
    const [file, ...more] = hostCaches();
    expect(more).toEqual([]);
    const { mtimeMs } = statSync(path.join(cache, file!));
    const { replies, code } = await runLauncher(m, [hello], {});
    expect(replies[0]).toMatchObject({ id: 1, result: { protocolVersion: PROTOCOL_VERSION } });
    expect(code).toBe(0);
    expect(hostCaches()).toEqual([file]);
    expect(statSync(path.join(cache, file!)).mtimeMs).toBe(mtimeMs);
  });

  it('resolves server commands on the login PATH recorded at install', async () => {
    writeFileSync(
      path.join(m.sy, 'config.json'),
      JSON.stringify({ mcpServers: { login: { command: 'sy-login-only-server' } } }),
    );
    // Approved from a terminal whose PATH has the folder, as a user would.
    execFileSync(HOST_NODE, [HOST_BUNDLE, 'trust', '--all', '--yes'], {
      env: { ...m.env, PATH: `${m.bin}:${process.env['PATH'] ?? ''}` },
    });
    const { replies } = await runLauncher(m, [hello, { method: 'servers/list' }]);
    const servers = (replies[1]?.['result'] as { servers: Array<Record<string, unknown>> }).servers;
    expect(servers[0]).toMatchObject({
      name: 'login',
      resolvedCommand: path.join(m.bin, 'sy-login-only-server'),
    });
    expect((servers[0]?.['status'] as { state: string }).state).not.toBe('needs-approval');
    rmSync(path.join(m.sy, 'config.json'));
  });

  it("doctor reports the install healthy, with its node's version", () => {
    const result = cli(m, ['doctor', '--json']);
    const report = JSON.parse(result.stdout) as {
      install: {
        state: string;
        browsers: Array<{ browser: string; problems: string[] }>;
        nodeVersion: string | null;
        notes: string[];
      };
      problems: string[];
    };
    expect(report.install.state).toBe('installed');
    expect(report.install.browsers).toEqual([
      expect.objectContaining({ browser: 'chromium', problems: [] }),
    ]);
    // The launcher runs the node that ran the install: the version it prints, and a note only if
    // that line's end of life has passed (Node 20 in the integration project, not 26).
    const version = execFileSync(HOST_NODE, ['-p', 'process.versions.node'], {
      encoding: 'utf8',
    }).trim();
    expect(report.install.nodeVersion).toBe(version);
    const note = endOfLifeNote(nodeSupport(version, new Date()));
    expect(report.install.notes).toEqual(note === null ? [] : [note]);
  });

  it('re-installs idempotently: nothing changes', () => {
    const files = [manifestPath(m), launcherPath(m), path.join(m.sy, 'install.json')];
    const before = files.map((f) => [readFileSync(f, 'utf8'), statSync(f).mtimeMs]);
    const result = install(m);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/^wrote/m);
    expect(result.stdout).toMatch(/^unchanged {2}/m);
    expect(files.map((f) => [readFileSync(f, 'utf8'), statSync(f).mtimeMs])).toEqual(before);
  });

  it('replaces a widened manifest on upgrade instead of merging it', () => {
    const widened = JSON.parse(readFileSync(manifestPath(m), 'utf8')) as {
      allowed_origins: string[];
    };
    widened.allowed_origins.push('chrome-extension://abcdefghijklmnopabcdefghijklmnop/');
    writeFileSync(manifestPath(m), JSON.stringify(widened));
    const doctor = JSON.parse(cli(m, ['doctor', '--json']).stdout) as { problems: string[] };
    expect(doctor.problems.join('\n')).toMatch(/also allows chrome-extension:\/\/abcdefghij/);
    expect(install(m).code).toBe(0);
    expect(JSON.parse(readFileSync(manifestPath(m), 'utf8'))).toMatchObject({
      allowed_origins: [ORIGIN],
    });
  });

  it('uninstall removes everything it wrote and nothing else', () => {
    writeFileSync(path.join(m.sy, 'trust.json.keep'), 'user data');
    const result = cli(m, ['uninstall']);
    expect(result.code).toBe(0);
    expect(existsSync(manifestPath(m))).toBe(false);
    expect(existsSync(path.join(m.sy, 'host'))).toBe(false);
    expect(existsSync(path.join(m.sy, 'install.json'))).toBe(false);
    expect(readdirSync(path.join(m.profile, 'NativeMessagingHosts'))).toEqual([]);
    expect(existsSync(path.join(m.sy, 'trust.json.keep'))).toBe(true);
    expect(cli(m, ['uninstall']).stdout).toMatch(/Nothing to uninstall/);
  });

  it('refuses a world-writable target folder, writing nothing', () => {
    const other = makeMachine();
    try {
      chmodSync(other.profile, 0o777);
      const result = install(other);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/writable by every user.*Nothing was written/s);
      expect(existsSync(other.sy)).toBe(false);
      expect(existsSync(path.join(other.profile, 'NativeMessagingHosts'))).toBe(false);
    } finally {
      rmSync(other.root, { recursive: true, force: true });
    }
  });
});
