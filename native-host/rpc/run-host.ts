import type { ServerSummary } from '../../protocol/servers';
import type {
  ElicitationAction,
  ElicitationRequest,
  ElicitationSettledBy,
} from '../../protocol/elicitation';
import { safeText } from '../../protocol/untrusted/gate';
import type { HostCore, LogLevel, ServerNotice } from '../host/core';
import { Dispatcher } from './dispatcher';
import { createHandlers } from './handlers';
import type { LiveConfig } from '../host/live-config';
import type { FirstFrames } from './first-frames';

/**
 * `switchyard host`: the native-messaging host the browser starts, from its second stage on.
 * Takes the channel over from the first stage (which checked the caller and may have answered
 * `host/hello` already: first-frames.ts), wires the dispatcher and the core, starts every server,
 * and owns shutdown (design D12): on stdin EOF,
 * SIGTERM, SIGINT, SIGHUP or a fatal error it kills every server's process group at once and
 * exits once stdout has drained, well inside Chromium's ~2 s before it kills a lingering host.
 */

/** Longest the host waits for servers to die and stdout to drain before it exits anyway. */
export const SHUTDOWN_DEADLINE_MS = 1_800;

export interface RunHostOptions {
  /** The browser's channel, opened by the first stage once it accepted the caller. */
  readonly frames: FirstFrames;
  readonly home: string;
  readonly version: string;
  /** Builds the core; `emit` forwards its events to the extension. */
  readonly createCore: (emit: CoreEventSink) => Promise<HostCore>;
  readonly configWarnings: readonly string[];
  /** Keeps config.json live (watched, reloaded, written by `servers/add`); none without a file. */
  readonly liveConfig?: (core: HostCore, log: CoreEventSink['log']) => LiveConfig | undefined;
  /** Writes one diagnostic line (stderr in production: never stdout, which is the wire). */
  readonly log: (line: string) => void;
  readonly exit: (code: number) => void;
  /** Called once every server's first start has settled (the launch gate has decided each). */
  readonly afterStartAll?: () => void;
  /** Registers process signal and crash handlers; tests pass a no-op. */
  readonly onProcessEvents?: (handlers: ProcessEventHandlers) => void;
}

export interface CoreEventSink {
  serverChanged(summary: ServerSummary): void;
  serverRemoved(summary: ServerSummary): void;
  toolsChanged(server: string): void;
  serverNotice(notice: ServerNotice): void;
  elicitationRequested(request: ElicitationRequest): void;
  elicitationSettled(id: string, action: ElicitationAction, by: ElicitationSettledBy): void;
  log(level: LogLevel, message: string, server?: string): void;
}

export interface ProcessEventHandlers {
  /** A termination signal: shut down and exit 0. */
  terminate(signal: string): void;
  /** An uncaught error: log it, shut down, exit 1. */
  fatal(error: unknown): void;
  /** Synchronous last resort from `process.on('exit')`: kill what may still be alive. */
  exitNow(): number[];
}

export function runHost(options: RunHostOptions): { done: Promise<number> } {
  return { done: serve(options) };
}

async function serve(options: RunHostOptions): Promise<number> {
  const { frames } = options;
  const { channel } = frames;
  const send = (message: unknown): Promise<void> => channel.send(message);
  const notify = (message: unknown): void => {
    send(message).catch(() => {
      // A notification that cannot be framed is dropped: the extension re-lists on demand.
    });
  };

  const sink: CoreEventSink = {
    serverChanged: (server) => {
      notify({ jsonrpc: '2.0', method: 'notifications/servers/changed', params: { server } });
    },
    serverRemoved: (server) => {
      notify({
        jsonrpc: '2.0',
        method: 'notifications/servers/changed',
        params: { server, removed: true },
      });
    },
    toolsChanged: (server) => {
      notify({ jsonrpc: '2.0', method: 'notifications/tools/changed', params: { server } });
    },
    elicitationRequested: (request) => {
      notify({
        jsonrpc: '2.0',
        method: 'notifications/elicitation/requested',
        params: { request },
      });
    },
    elicitationSettled: (id, action, by) => {
      notify({
        jsonrpc: '2.0',
        method: 'notifications/elicitation/settled',
        params: { id, action, by },
      });
    },
    serverNotice: (notice) => {
      const method =
        notice.kind === 'resources-changed'
          ? 'notifications/resources/changed'
          : notice.kind === 'prompts-changed'
            ? 'notifications/prompts/changed'
            : 'notifications/resources/updated';
      const params =
        notice.kind === 'resource-updated'
          ? { server: notice.server, uri: notice.uri }
          : { server: notice.server };
      notify({ jsonrpc: '2.0', method, params });
    },
    log: (level, message, server) => {
      const clean = safeText(message);
      options.log(`[${level}]${server === undefined ? '' : ` ${server}:`} ${clean}`);
      notify({
        jsonrpc: '2.0',
        method: 'notifications/log',
        params: { level, message: clean, ...(server === undefined ? {} : { server }) },
      });
    },
  };
  const core = await options.createCore(sink);
  const live = options.liveConfig?.(core, (level, message, server) => {
    sink.log(level, message, server);
  });

  const dispatcher = new Dispatcher({
    handlers: createHandlers({
      core,
      home: options.home,
      version: options.version,
      configWarnings: () => live?.warnings() ?? options.configWarnings,
      runtime: frames.runtime,
      ...(live === undefined ? {} : { liveConfig: live }),
    }),
    send,
    log: (level, message) => {
      options.log(`[${level}] ${message}`);
    },
    helloAnswered: frames.helloAnswered,
  });

  let resolveDone: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => {
    resolveDone = resolve;
  });
  let shuttingDown = false;
  const shutdown = (code: number, why: string): void => {
    if (shuttingDown) return;
    shuttingDown = true;
    options.log(`switchyard host: shutting down (${why})`);
    dispatcher.abortAll('host-shutdown');
    live?.close();
    const deadline = new Promise<void>((resolve) => {
      setTimeout(resolve, SHUTDOWN_DEADLINE_MS).unref();
    });
    void Promise.race([
      core
        .shutdown()
        .then(() => channel.drain())
        .catch(() => undefined),
      deadline,
    ]).then(() => {
      channel.close();
      resolveDone(code);
      options.exit(code);
    });
  };

  options.onProcessEvents?.({
    terminate: (signal) => {
      shutdown(0, signal);
    },
    fatal: (error) => {
      // One fatal error is enough to shut down; reporting later ones could loop (a report that
      // itself fails) and would starve the shutdown it waits for.
      if (shuttingDown) return;
      options.log(
        `switchyard host: fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      shutdown(1, 'fatal error');
    },
    exitNow: () => core.livePids(),
  });
  for (const warning of options.configWarnings) options.log(`[warning] ${warning}`);
  void core.startAll().finally(() => options.afterStartAll?.());
  live?.start();
  // What arrived while this stage loaded is handled now, in order, then every later frame: after
  // startAll, so a queued servers/list sees each server starting, as it would have before.
  frames.handOver({
    onmessage: (value) => {
      dispatcher.handle(value);
    },
    onparseerror: (error) => {
      dispatcher.handleParseError(error);
    },
    onclose: (reason) => {
      shutdown(reason.kind === 'eof' ? 0 : 1, `channel closed: ${reason.kind}`);
    },
  });
  return done;
}
