import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEV_EXTENSION_ID, chromiumOrigin } from '../../protocol/identity';
import { MAX_HOST_TO_BROWSER_FRAME_BYTES } from '../../protocol/limits';
import { PROTOCOL_VERSION } from '../../protocol/methods';
import { unwrapUntrusted } from '../../native-host/shared/wrap-untrusted';
import { GUARDIAN_NAME } from '../../native-host/supervisor/guardian';

/**
 * Drives the real bundled host (dist/host/switchyard.cjs) over real native-messaging frames, the
 * way the browser does. Its frame code is written independently of the host's codec on purpose,
 * so the two check each other.
 */

export const ROOT = resolve(import.meta.dirname, '../..');
export const HOST_BUNDLE = join(ROOT, 'dist/host/switchyard.cjs');
/**
 * The Node that runs the host and its CLI here: the one running the tests, or the one
 * SWITCHYARD_TEST_HOST_NODE names. The `integration-lts` project (vitest.config.ts) names the
 * current LTS, so the same tests show the host works on the Node most users have as well as on
 * the oldest it supports. Servers and fixtures run on the tests' own Node either way.
 */
export const HOST_NODE = hostNode(process.env['SWITCHYARD_TEST_HOST_NODE']);

function hostNode(named: string | undefined): string {
  if (named === undefined || named === '') return process.execPath;
  if (!existsSync(named)) {
    throw new Error(
      `SWITCHYARD_TEST_HOST_NODE names ${named}, which does not exist: run npm ci (it installs the pinned node-lts-<os>-<arch> package)`,
    );
  }
  return named;
}
export const FIXTURE_SERVER = join(ROOT, 'test/fixtures/scripted-server.mjs');

const pkg = (name: string, entry: string) =>
  join(ROOT, 'node_modules/@modelcontextprotocol', name, entry);
export const EVERYTHING_SERVER = pkg('server-everything', 'dist/index.js');
export const FILESYSTEM_SERVER = pkg('server-filesystem', 'dist/index.js');
export const MEMORY_SERVER = pkg('server-memory', 'dist/index.js');

export interface ServerEntryInput {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  timeout?: number;
  toolTimeout?: number;
  prefix?: string;
  apps?: boolean;
  disabled?: boolean;
}

/** A remote server's entry, in the shapes config.json accepts (issue 11). */
export interface RemoteEntryInput {
  type?: 'http' | 'sse';
  url: string;
  headers?: Record<string, string>;
  /** A pre-registered OAuth client, as config.json spells it. */
  oauth?: Record<string, unknown>;
  timeout?: number;
  toolTimeout?: number;
}

export interface JsonRpcReply {
  id: number | string | null;
  result?: unknown;
  error?: { code: number; message: string; data?: { reason?: string } & Record<string, unknown> };
}

export interface Notification {
  method: string;
  params: Record<string, unknown>;
}

/** The payload of an untrusted-data block the host wrapped a result text in (or the text). */
export function unwrap(text: string): string {
  return unwrapUntrusted(text)?.payload ?? text;
}

/** Approves every server of `home` the way a user at a terminal would. */
export function approveAll(home: string): string {
  return execFileSync(HOST_NODE, [HOST_BUNDLE, 'trust', '--all', '--yes'], {
    env: { ...process.env, SWITCHYARD_HOME: home },
    encoding: 'utf8',
  });
}

/** Runs the bundled CLI with `env` (stdin closed); never throws, whatever it exits with. */
export function runCli(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): { code: number | null; out: string; err: string } {
  const result = spawnSync(HOST_NODE, [HOST_BUNDLE, ...args], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

export function makeHome(config: unknown): string {
  const home = mkdtempSync(join(tmpdir(), 'switchyard-test-'));
  writeFileSync(
    join(home, 'config.json'),
    typeof config === 'string' ? config : JSON.stringify(config, null, 2),
  );
  return home;
}

/** Every host a test started, so a failing test cannot leave one running (see setup.ts). */
const liveHosts = new Set<ChildProcess>();

/** SIGKILLs every host still running; the hosts' own exit handlers are not needed for this. */
export function killLeftoverHosts(): void {
  for (const child of liveHosts) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  liveHosts.clear();
}

export class HostHarness {
  readonly child: ChildProcess;
  readonly notifications: Notification[] = [];
  readonly stderr: string[] = [];
  /** Every frame's length prefix as read, so a test can bound the frames the host wrote. */
  readonly frameLengths: number[] = [];
  /** How many replies arrived for each request id (each should get exactly one). */
  readonly replyCounts = new Map<number | string | null, number>();
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly waiting = new Map<
    number | string,
    { resolve: (reply: JsonRpcReply) => void; reject: (error: Error) => void }
  >();
  private readonly listeners = new Set<() => void>();
  readonly exited: Promise<{ code: number | null; signal: string | null }>;

  constructor(
    readonly home: string,
    options: { args?: string[]; env?: NodeJS.ProcessEnv } = {},
  ) {
    this.child = spawn(
      HOST_NODE,
      [HOST_BUNDLE, 'host', ...(options.args ?? [chromiumOrigin(DEV_EXTENSION_ID)])],
      {
        env: { ...process.env, SWITCHYARD_HOME: home, ...options.env },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    liveHosts.add(this.child);
    this.exited = new Promise((resolveExit) => {
      this.child.once('exit', (code, signal) => {
        liveHosts.delete(this.child);
        // A request the host can no longer answer fails now, not at the test's timeout.
        for (const [id, { reject }] of this.waiting) {
          reject(
            new Error(
              `the host exited (code ${String(code)}, signal ${String(signal)}) before answering request ${String(id)}. stderr:\n${this.stderr.join('')}`,
            ),
          );
        }
        this.waiting.clear();
        resolveExit({ code, signal });
      });
    });
    this.child.stdout?.on('data', (chunk: Buffer) => {
      this.onData(chunk);
    });
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (chunk: string) => {
      this.stderr.push(chunk);
    });
    this.child.stdin?.on('error', () => undefined);
  }

  /**
   * Starts a host on a fresh home with the given mcpServers and completes the handshake. Unless
   * `trusted` is false, the servers are first approved the way a user would, with
   * `switchyard trust --all --yes`: a config.json written by hand is "edited outside Switchyard".
   */
  static async start(
    servers: Record<string, ServerEntryInput | RemoteEntryInput>,
    extra: Record<string, unknown> = {},
    options: { trusted?: boolean } = {},
  ): Promise<HostHarness> {
    const home = makeHome({ mcpServers: servers, ...extra });
    if (options.trusted !== false) approveAll(home);
    const host = new HostHarness(home);
    await host.hello();
    return host;
  }

  sendRaw(bytes: Buffer): void {
    this.child.stdin?.write(bytes);
  }

  sendFrame(value: unknown): void {
    const body = Buffer.from(JSON.stringify(value), 'utf8');
    const header = Buffer.alloc(4);
    header.writeUInt32LE(body.length, 0);
    this.sendRaw(Buffer.concat([header, body]));
  }

  /**
   * When true (the default), a `tools/call` answered `approval-required` is re-sent once with that
   * approval, as the extension does after the user clicks Allow once. Tests of the approval gate
   * itself turn it off.
   */
  autoApprove = true;

  async request(
    method: string,
    params?: unknown,
    id: number | string = this.nextId++,
  ): Promise<JsonRpcReply> {
    const reply = await this.requestOnce(method, params, id);
    const approval =
      reply.error?.data?.reason === 'approval-required' ? reply.error.data['approval'] : undefined;
    if (
      !this.autoApprove ||
      method !== 'tools/call' ||
      typeof approval !== 'object' ||
      approval === null
    ) {
      return reply;
    }
    const { requestId, nonce } = approval as { requestId: string; nonce: string };
    return this.requestOnce(method, { ...(params as object), approval: { requestId, nonce } }, id);
  }

  private requestOnce(method: string, params: unknown, id: number | string): Promise<JsonRpcReply> {
    if (this.waiting.has(id)) throw new Error(`request id ${String(id)} is already waiting`);
    const reply = new Promise<JsonRpcReply>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
    });
    this.sendFrame({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    return reply;
  }

  /** Sends a request and returns its result, failing the test on an error reply. */
  async call<T = Record<string, unknown>>(method: string, params?: unknown): Promise<T> {
    const reply = await this.request(method, params);
    if (reply.error) throw new Error(`${method} failed: ${JSON.stringify(reply.error)}`);
    return reply.result as T;
  }

  notify(method: string, params?: unknown): void {
    this.sendFrame({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) });
  }

  hello(): Promise<JsonRpcReply> {
    return this.request('host/hello', {
      protocolVersion: PROTOCOL_VERSION,
      client: { name: 'test', version: '0' },
    });
  }

  /** Resolves once `predicate` holds, re-checked on every incoming message. */
  async until<T>(
    predicate: () => T | undefined | false,
    what: string,
    timeoutMs = 30_000,
  ): Promise<T> {
    const now = predicate();
    if (now) return now;
    return new Promise<T>((resolveWait, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`Timed out waiting for ${what}. stderr:\n${this.stderr.join('')}`));
      }, timeoutMs);
      const check = () => {
        const value = predicate();
        if (value) {
          clearTimeout(timer);
          this.listeners.delete(check);
          resolveWait(value);
        }
      };
      this.listeners.add(check);
    });
  }

  /** Polls servers/list until every server has left 'starting'. */
  async settled(): Promise<
    Array<{ name: string; status: { state: string } & Record<string, unknown> }>
  > {
    for (;;) {
      const { servers } = await this.call<{
        servers: Array<{ name: string; status: { state: string } & Record<string, unknown> }>;
      }>('servers/list');
      if (servers.every((s) => s.status.state !== 'starting')) return servers;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Closes stdin (what the browser does on disconnect) and waits for the host to exit. */
  async close(): Promise<{ code: number | null; signal: string | null }> {
    this.child.stdin?.end();
    return this.exited;
  }

  private onData(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      if (this.buffer.length < 4) return;
      const length = this.buffer.readUInt32LE(0);
      if (length > MAX_HOST_TO_BROWSER_FRAME_BYTES) {
        this.frameLengths.push(length);
        // The browser drops the port here, and so does the harness: nothing after it can be read.
        // (A throw from a stream handler would only crash the test run.)
        this.child.kill('SIGKILL');
        this.notifications.push({ method: '(oversized frame)', params: { length } });
        return;
      }
      if (this.buffer.length < 4 + length) return;
      this.frameLengths.push(length);
      const message = JSON.parse(
        this.buffer.subarray(4, 4 + length).toString('utf8'),
      ) as JsonRpcReply & Partial<Notification>;
      this.buffer = this.buffer.subarray(4 + length);
      if (typeof message.method === 'string') {
        this.notifications.push({ method: message.method, params: message.params ?? {} });
      } else {
        this.replyCounts.set(message.id, (this.replyCounts.get(message.id) ?? 0) + 1);
        const waiting = message.id === null ? undefined : this.waiting.get(message.id);
        if (waiting && message.id !== null) {
          this.waiting.delete(message.id);
          waiting.resolve(message);
        } else {
          this.notifications.push({ method: '(orphan reply)', params: { message } });
        }
      }
      for (const listener of this.listeners) listener();
    }
  }
}

/** Pids of live processes whose command line contains `marker` (from `ps`, not from the host). */
export function processesMatching(marker: string): Array<{ pid: number; args: string }> {
  return liveProcesses()
    .filter((p) => p.args.includes(marker) && !p.args.startsWith('ps '))
    .map(({ pid, args }) => ({ pid, args }));
}

/**
 * Command lines of the live direct children of `pid`, from `ps`: what a host really spawned. The
 * host's guardian (native-host/supervisor/guardian.ts) is no server and is left out.
 */
export function childrenOf(pid: number): string[] {
  return liveProcesses()
    .filter((p) => p.ppid === pid && !p.args.endsWith(GUARDIAN_NAME))
    .map((p) => p.args);
}

/** Every live process (zombies left out), as `ps` reports it. */
export function liveProcesses(): Array<{ pid: number; ppid: number; args: string }> {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,stat=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null && !m[3]!.startsWith('Z'))
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[4]! }));
}

/** Whether `pid` is a live process (a zombie awaiting its reaper counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], {
      encoding: 'utf8',
    }).trim();
    return stat !== '' && !stat.startsWith('Z');
  } catch {
    return false;
  }
}

/** Resident set size of a live process in KiB, from /proc (Linux), else from `ps -o rss=`. */
export function rssKiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
    if (match?.[1] !== undefined) return Number(match[1]);
  } catch {
    // No /proc (macOS): ask ps.
  }
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim());
}
