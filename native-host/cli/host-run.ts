import { createCore } from '../host/create-core';
import type { PreparedCore } from '../host/core-prepare';
import { LiveConfig } from '../host/live-config';
import type { PrestartedServers } from '../host/prestart';
import type { HostSetup } from '../host/setup';
import type { FirstFrames } from '../rpc/first-frames';
import { runHost } from '../rpc/run-host';
import { killProcessGroupNow } from '../supervisor/process-transport';
import { HOST_VERSION } from '../shared/version';
import type { CliIo } from './io';

/**
 * The host's second stage (decision 0022): the core, the RPC layer and the live configuration,
 * loaded once the first stage (host-command.ts) has spawned the approved servers.
 */

export interface FullHostOptions {
  readonly io: CliIo;
  readonly log: (line: string) => void;
  readonly setup: HostSetup;
  /** The browser's channel, open since the first stage accepted the caller. */
  readonly frames: FirstFrames;
  /** What the first stage built and spawned. */
  readonly early: { readonly prepared: PreparedCore; readonly servers: PrestartedServers };
}

export function runFullHost(options: FullHostOptions): Promise<number> {
  const { io, setup, log, early } = options;
  const { done } = runHost({
    frames: options.frames,
    home: setup.home ?? '',
    version: HOST_VERSION,
    configWarnings: setup.warnings,
    createCore: (emit) =>
      createCore(setup, {
        env: io.env,
        platform: io.platform,
        clientName: 'switchyard',
        version: HOST_VERSION,
        via: 'browser',
        prepared: early.prepared,
        adoptLaunch: (launcher) => early.servers.launcher(launcher),
        events: {
          onServerChanged: (summary) => {
            emit.serverChanged(summary);
          },
          onServerRemoved: (summary) => {
            emit.serverRemoved(summary);
          },
          onToolsChanged: (server) => {
            emit.toolsChanged(server);
          },
          onLog: (level, message, server) => {
            emit.log(level, message, server);
          },
          onServerNotice: (notice) => {
            emit.serverNotice(notice);
          },
          onElicitationRequested: (request) => {
            emit.elicitationRequested(request);
          },
          onElicitationSettled: (id, action, by) => {
            emit.elicitationSettled(id, action, by);
          },
        },
      }),
    liveConfig: (core, emitLog) => {
      const { configFile } = setup;
      if (configFile === null) return undefined;
      return new LiveConfig({
        env: io.env,
        platform: io.platform,
        core,
        initial: { ...setup, configFile },
        log: (level, message) => {
          emitLog(level, message);
        },
      });
    },
    log,
    exit: (code) => {
      process.exit(code);
    },
    // A server spawned early that the launch gate did not hand over is closed, never connected.
    afterStartAll: () => {
      void early.servers.closeUnclaimed();
    },
    onProcessEvents: (handlers) => {
      for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
        process.on(signal, () => {
          handlers.terminate(signal);
        });
      }
      process.on('uncaughtException', (error) => {
        handlers.fatal(error);
      });
      process.on('unhandledRejection', (error) => {
        handlers.fatal(error);
      });
      // Last resort if the host exits by any other path: no server may outlive it (design D12).
      process.on('exit', () => {
        const pids = [...handlers.exitNow(), ...early.servers.unclaimedPids()];
        for (const pid of pids) killProcessGroupNow(pid);
      });
    },
  });
  return done;
}
