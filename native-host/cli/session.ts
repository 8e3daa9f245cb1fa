import type { HostCore, LogLevel } from '../host/core';
import { createCore } from '../host/create-core';
import { loadSetup, type HostSetup } from '../host/setup';
import type { CliIo } from './io';
import { HOST_VERSION } from '../shared/version';

/**
 * A CLI session: the same core the host runs, started in-process, for `doctor`, `tools` and
 * `call`. Servers start in parallel; the session always shuts them down, even on error.
 */
export async function withCore<T>(
  io: CliIo,
  run: (core: HostCore, setup: HostSetup) => Promise<T>,
  options: { readonly verbose?: boolean; readonly start?: boolean } = {},
): Promise<T> {
  const setup = await loadSetup({ env: io.env, platform: io.platform });
  const core = await createCore(setup, {
    env: io.env,
    platform: io.platform,
    clientName: 'switchyard-cli',
    version: HOST_VERSION,
    via: 'cli',
    events: {
      onLog: (level: LogLevel, message: string) => {
        if (options.verbose === true) io.err(`[${level}] ${message}\n`);
      },
    },
  });
  try {
    if (options.start !== false) await core.startAll();
    return await run(core, setup);
  } finally {
    await core.shutdown();
  }
}
