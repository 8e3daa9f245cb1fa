import type { HostCore, LogLevel } from '../host/core';
import { createCore } from '../host/create-core';
import { loadSetup, type HostSetup } from '../host/setup';
import type { CliIo } from './io';
import { HOST_VERSION } from '../shared/version';

/**
 * A CLI session: the same core the host runs, started in-process, for `doctor`, `tools`, `call`,
 * `trust` and `revoke`. Servers start in parallel; the session always shuts them down, even on
 * error. A command that names itself (`command`) is stopped, exit 1, when the configuration was
 * rejected whole: it would run on no servers and report that as the truth ("Every configured
 * server is approved", "0 tools"). `doctor` names none: it reports the problem itself.
 */
export async function withCore(
  io: CliIo,
  run: (core: HostCore, setup: HostSetup) => Promise<number>,
  options: {
    readonly verbose?: boolean;
    readonly start?: boolean;
    readonly command?: string;
  } = {},
): Promise<number> {
  const setup = await loadSetup({ env: io.env, platform: io.platform });
  if (setup.configRejected && options.command !== undefined) {
    for (const warning of setup.warnings) io.err(`switchyard ${options.command}: ${warning}\n`);
    io.err(`switchyard ${options.command}: nothing was done; fix that, then try again.\n`);
    return 1;
  }
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
