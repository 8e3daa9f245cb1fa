import { createCore } from '../host/create-core';
import { LiveConfig } from '../host/live-config';
import { runHost } from '../rpc/run-host';
import { loadSetup } from '../host/setup';
import { killProcessGroupNow } from '../supervisor/process-transport';
import { HOST_VERSION } from '../shared/version';
import { hostStartContext } from './install-host';
import type { CliIo } from './io';

/**
 * `switchyard host <caller...>`: what the browser runs. stdout is the wire from here on, so
 * `console` is pointed at stderr before anything else can print (a dependency's stray
 * console.log would corrupt a frame).
 */
export async function hostCommand(io: CliIo, args: readonly string[]): Promise<number> {
  const { Console } = await import('node:console');
  globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });

  // When the browser goes away, stderr breaks too (EPIPE). An unhandled error there would become
  // an uncaught exception whose report writes to stderr again: a loop that starves the event loop
  // and keeps the host spinning forever. Diagnostics are best effort; a broken stderr drops them.
  let stderrOpen = true;
  process.stderr.on('error', () => {
    stderrOpen = false;
  });
  const log = (line: string): void => {
    if (!stderrOpen) return;
    try {
      process.stderr.write(`${line}\n`);
    } catch {
      stderrOpen = false;
    }
  };

  // The install receipt: the login-shell PATH recorded by 'switchyard install' (a browser started
  // from the desktop gives a bare one) and the store extension ids the manifests allow.
  const context = await hostStartContext(io.env, io.platform);
  for (const warning of context.warnings) log(warning);
  io = { ...io, env: context.env };

  const setup = await loadSetup({ env: io.env, platform: io.platform });
  const { done } = runHost({
    args,
    allowedCallers: context.allowedCallers,
    input: process.stdin,
    output: process.stdout,
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
        for (const pid of handlers.exitNow()) killProcessGroupNow(pid);
      });
    },
  });
  return done;
}
