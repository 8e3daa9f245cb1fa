import { HostCore, type LogLevel } from '../host/core';
import { createLauncher } from '../host/launch';
import { loadSetup, type HostSetup } from '../host/setup';
import type { CliIo } from './io';
import { HOST_VERSION } from '../version';

/**
 * A CLI session: the same core the host runs, started in-process, for `doctor`, `tools` and
 * `call`. Servers start in parallel; the session always shuts them down, even on error.
 */
export async function withCore<T>(
  io: CliIo,
  run: (core: HostCore, setup: HostSetup) => Promise<T>,
  options: { readonly verbose?: boolean } = {},
): Promise<T> {
  const setup = await loadSetup({ env: io.env, platform: io.platform });
  const core = new HostCore({
    servers: setup.specs,
    spawnServer: createLauncher({ hostEnv: io.env, platform: io.platform }),
    clientInfo: { name: 'switchyard-cli', version: HOST_VERSION },
    events: {
      onLog: (level: LogLevel, message: string) => {
        if (options.verbose === true) io.err(`[${level}] ${message}\n`);
      },
    },
  });
  try {
    await core.startAll();
    return await run(core, setup);
  } finally {
    await core.shutdown();
  }
}
