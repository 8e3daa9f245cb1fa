import { spawn, type ChildProcess } from 'node:child_process';
import type { z } from 'zod';
import { parseJsonRpcMessage, type JsonRpcErrorObject } from '../protocol/jsonrpc';
import { MAX_HOST_TO_BROWSER_FRAME_BYTES } from '../protocol/limits';
import {
  PROTOCOL_VERSION,
  requestMethods,
  type ParamsOf,
  type RequestMethod,
  type ResultOf,
} from '../protocol/methods';
import { describeExit, type ExitInfo } from '../protocol/servers';
import { HOST_NODE_FLAGS, hostEnvFor } from '../native-host/shared/node-flags';

/**
 * A lean native-messaging client for the bench: spawns the bundled host the way the browser does
 * and speaks frames (32-bit little-endian length + UTF-8 JSON-RPC) to it. Unlike the integration
 * harness it keeps no notification log and no per-message listeners, so the client side of a
 * round trip costs about what the SDK's stdio client costs: one JSON encode, one decode, one
 * envelope parse. Its framing is written apart from the host's codec on purpose.
 */

export type { ExitInfo } from '../protocol/servers';

/** An error reply from the host, with the JSON-RPC error object as sent. */
export class HostRpcError extends Error {
  override readonly name = 'HostRpcError';
  constructor(
    readonly method: string,
    readonly error: JsonRpcErrorObject,
  ) {
    super(`${method} failed: ${error.message} (${JSON.stringify(error.data ?? null)})`);
  }

  /** The typed Switchyard error reason (`data.reason`), if the host sent one. */
  get reason(): string | undefined {
    const data = this.error.data;
    if (typeof data !== 'object' || data === null || !('reason' in data)) return undefined;
    return typeof data.reason === 'string' ? data.reason : undefined;
  }
}

export interface SpawnHostOptions {
  /** Path of the bundled host (dist/host/switchyard.cjs). */
  readonly bundle: string;
  /** $SWITCHYARD_HOME for this host. */
  readonly home: string;
  /** The caller origin the browser passes as the first argument. */
  readonly origin: string;
  /** Extra node options before the bundle (profiling probes only: the browser passes none). */
  readonly nodeArgs?: readonly string[];
  /** Extra environment for the host (probes only). */
  readonly env?: Readonly<Record<string, string>>;
}

interface Pending {
  readonly method: string;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
}

const HEADER_BYTES = 4;
const STDERR_TAIL_CHARS = 4_000;
/** Chromium SIGKILLs a host about 2 s after disconnecting; the bench is a little more patient. */
const CLOSE_KILL_AFTER_MS = 5_000;

export class FramesClient {
  /** Called for every notification the host sends (params unparsed: the caller owns the schema). */
  onnotification: ((method: string, params: unknown) => void) | undefined;
  readonly exited: Promise<ExitInfo>;
  /** Frames read from the host so far, and the largest length prefix among them, in bytes. */
  framesRead = 0;
  largestFrameBytes = 0;
  private readonly child: ChildProcess;
  private buffer: Buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private stderr = '';
  private exitInfo: ExitInfo | undefined;

  private constructor(child: ChildProcess) {
    this.child = child;
    this.exited = new Promise((resolveExit) => {
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        this.failAll(new Error(`the host exited (${describeExit(this.exitInfo)})`));
        resolveExit(this.exitInfo);
      });
      child.once('error', (error) => {
        this.exitInfo ??= { code: null, signal: null };
        this.failAll(new Error(`could not run the host: ${error.message}`));
        resolveExit(this.exitInfo);
      });
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      this.onData(chunk);
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL_CHARS);
    });
    // A write after the host died must surface as the pending request's failure, not a crash.
    child.stdin?.on('error', () => undefined);
  }

  /** Spawns `node <bundle> host <origin>` with its own SWITCHYARD_HOME. */
  static spawn(options: SpawnHostOptions): FramesClient {
    // The flags and environment the launcher uses, so the bench measures the host as browsers
    // run it.
    const args = [
      ...HOST_NODE_FLAGS,
      ...(options.nodeArgs ?? []),
      options.bundle,
      'host',
      options.origin,
    ];
    const child = spawn(process.execPath, args, {
      env: {
        ...process.env,
        ...hostEnvFor(process.platform),
        ...options.env,
        SWITCHYARD_HOME: options.home,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return new FramesClient(child);
  }

  /** The host's pid (undefined only if the spawn itself failed). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Last few thousand characters the host wrote to stderr, for error messages. */
  stderrTail(): string {
    return this.stderr;
  }

  /** Sends one request and resolves with its raw, unvalidated result; rejects on an error reply. */
  request<M extends RequestMethod>(method: M, params: ParamsOf<M>): Promise<unknown> {
    if (this.exitInfo) {
      return Promise.reject(new Error(`the host has exited (${describeExit(this.exitInfo)})`));
    }
    const id = this.nextId++;
    const reply = new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { method, resolve, reject });
    });
    this.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    return reply;
  }

  /**
   * Sends one request and parses its result with `schema`: the protocol's own result schema, or a
   * bench view of it that reads only the fields the bench uses (a tolerant reader, so the bench
   * keeps working while the protocol grows).
   */
  async call<M extends RequestMethod, T>(
    method: M,
    params: ParamsOf<M>,
    schema: z.ZodType<T>,
  ): Promise<T> {
    const result = await this.request(method, params);
    const parsed = schema.safeParse(result);
    if (!parsed.success) {
      throw new Error(
        `${method}: the host's result is not what the bench expects: ${parsed.error}`,
      );
    }
    return parsed.data;
  }

  hello(): Promise<ResultOf<'host/hello'>> {
    return this.call('host/hello', HELLO_PARAMS, requestMethods['host/hello'].result);
  }

  /**
   * Closes stdin, as the browser does on disconnect, and waits for the host to exit; SIGKILLs it
   * after `killAfterMs`, as Chromium does to a lingering host (its servers are then its problem).
   */
  async close(killAfterMs = CLOSE_KILL_AFTER_MS): Promise<ExitInfo> {
    this.child.stdin?.end();
    const timer = setTimeout(() => {
      this.child.kill('SIGKILL');
    }, killAfterMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  private send(message: unknown): void {
    const json = JSON.stringify(message);
    const length = Buffer.byteLength(json, 'utf8');
    const frame = Buffer.allocUnsafe(HEADER_BYTES + length);
    frame.writeUInt32LE(length, 0);
    frame.write(json, HEADER_BYTES, 'utf8');
    this.child.stdin?.write(frame);
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length >= HEADER_BYTES) {
      const length = this.buffer.readUInt32LE(0);
      if (length > this.largestFrameBytes) this.largestFrameBytes = length;
      if (length > MAX_HOST_TO_BROWSER_FRAME_BYTES) {
        // The browser would drop the port here; so does the bench.
        this.child.kill('SIGKILL');
        this.failAll(new Error(`the host sent a ${length}-byte frame, over the browser's limit`));
        return;
      }
      if (this.buffer.length < HEADER_BYTES + length) return;
      const payload = this.buffer.toString('utf8', HEADER_BYTES, HEADER_BYTES + length);
      this.buffer = this.buffer.subarray(HEADER_BYTES + length);
      this.framesRead += 1;
      let value: unknown;
      try {
        value = JSON.parse(payload);
      } catch {
        // A frame that is not JSON means the stream is out of sync; nothing after it can be read.
        this.child.kill('SIGKILL');
        this.failAll(new Error(`the host sent a frame that is not JSON: ${payload.slice(0, 200)}`));
        return;
      }
      this.onMessage(value);
    }
  }

  private onMessage(value: unknown): void {
    const message = parseJsonRpcMessage(value);
    if (message === undefined) return;
    if ('method' in message) {
      if (!('id' in message)) this.onnotification?.(message.method, message.params);
      return;
    }
    if (typeof message.id !== 'number') return;
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    if ('error' in message) waiting.reject(new HostRpcError(waiting.method, message.error));
    else waiting.resolve(message.result);
  }

  private failAll(error: Error): void {
    const withStderr = new Error(`${error.message}. Host stderr:\n${this.stderr}`);
    for (const waiting of this.pending.values()) waiting.reject(withStderr);
    this.pending.clear();
  }
}

const HELLO_PARAMS: ParamsOf<'host/hello'> = {
  protocolVersion: PROTOCOL_VERSION,
  client: { name: 'switchyard-bench', version: '0' },
};

/** Params of the bare-hop request: `host/hello` touches no server. */
export const BARE_HOP_PARAMS = HELLO_PARAMS;
