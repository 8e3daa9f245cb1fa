import { readServerLog } from '../audit/server-logs';
import { switchyardHome } from '../config/paths';
import { messageOf } from '../../protocol/guards';
import type { CliIo } from './io';

/** Lines shown when `--lines` is not given. */
export const DEFAULT_LOG_LINES = 50;

export type LogsArgs =
  | { readonly ok: true; readonly server: string; readonly lines: number }
  | { readonly ok: false; readonly error: string };

/** `logs <name> [--lines N]`, parsed without I/O. */
export function parseLogsArgs(argv: readonly string[]): LogsArgs {
  let server: string | undefined;
  let lines = DEFAULT_LOG_LINES;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const inline = arg.startsWith('--lines=') ? arg.slice('--lines='.length) : undefined;
    if (arg === '--lines' || inline !== undefined) {
      const value = inline ?? argv[++i];
      const count = Number(value);
      if (value === undefined || !/^\d{1,6}$/.test(value) || !Number.isSafeInteger(count)) {
        return { ok: false, error: '--lines needs a whole number, e.g. --lines 200' };
      }
      lines = count;
    } else if (arg.startsWith('-') || server !== undefined) {
      return { ok: false, error: `unknown argument '${arg.slice(0, 100)}'` };
    } else {
      server = arg;
    }
  }
  if (server === undefined)
    return { ok: false, error: 'name the server, e.g. switchyard logs memory' };
  return { ok: true, server, lines };
}

/**
 * `switchyard logs <name> [--lines N]`: the last lines a server wrote to stderr, each with the
 * time it was read, as every host of this home recorded them (secrets already redacted).
 */
export async function logs(io: CliIo, argv: readonly string[]): Promise<number> {
  const parsed = parseLogsArgs(argv);
  if (!parsed.ok) {
    io.err(`switchyard logs: ${parsed.error}\nusage: switchyard logs <name> [--lines N]\n`);
    return 2;
  }
  let home: string;
  try {
    home = switchyardHome(io.env, io.platform);
  } catch (error) {
    io.err(`switchyard logs: ${messageOf(error)}\n`);
    return 1;
  }
  const lines = await readServerLog(home, parsed.server, parsed.lines);
  if (lines === undefined) {
    io.err(
      `switchyard logs: '${parsed.server}' has written nothing to stderr yet (or has never run from this home). Start it from the popup or with 'switchyard doctor', then try again.\n`,
    );
    return 1;
  }
  io.out(lines.length === 0 ? '' : `${lines.join('\n')}\n`);
  return 0;
}
