import path from 'node:path';
import { formatCommandLine } from '../../protocol/argv';
import { messageOf } from '../../protocol/guards';
import { AUDIT_FILE_NAME, AuditLog, type AuditEntry } from '../audit/audit-log';
import { ConfigError } from '../config/load';
import { switchyardHome } from '../config/paths';
import { FileLockTimeoutError } from '../shared/file-lock';
import { HostError } from '../shared/host-error';
import { addUserServer, type AddedServer } from '../host/user-servers';
import type { NewUserServer } from '../host/written-entry';
import { TrustStore, TrustStoreError } from '../trust/trust-store';
import { hostStartContext } from './install-host';
import type { CliIo } from './io';
import { describeShim } from './shim-text';

/**
 * `switchyard add <name> [--env K=V]... [--cwd DIR] [--replace] -- <command> [args...]`: writes a
 * server to config.json as Switchyard, approving exactly what it would run (so it starts without
 * a prompt, in a running host too: the host reloads config.json), the same way the popup does.
 */

export const ADD_USAGE =
  'usage: switchyard add <name> [--env KEY=VALUE]... [--cwd DIR] [--replace] -- <command> [args...]\n' +
  '       switchyard add <name> --url URL [--type http|sse] [--header NAME=VALUE]... [--replace]\n' +
  '  e.g. switchyard add files -- npx -y @modelcontextprotocol/server-filesystem "/Users/me/My Documents"\n' +
  "       switchyard add linear --url https://mcp.linear.app/mcp --header 'Authorization=Bearer ${LINEAR_TOKEN}'\n";

export type AddArguments =
  | { readonly ok: true; readonly server: NewUserServer; readonly replace: boolean }
  | { readonly ok: false; readonly error: string };

/**
 * Pure: reads add's arguments. Everything after `--` is the command and its arguments, verbatim
 * (the shell has already split them). A relative `--cwd` or command path is made absolute
 * against `cwd`: the host is started by the browser, in another folder.
 */
export function parseAddArguments(argv: readonly string[], cwd: string): AddArguments {
  const separator = argv.indexOf('--');
  const options = separator === -1 ? argv : argv.slice(0, separator);
  const [command, ...args] = separator === -1 ? [] : argv.slice(separator + 1);
  const env: Record<string, string> = {};
  const headers: Record<string, string> = {};
  let name: string | undefined;
  let workdir: string | undefined;
  let url: string | undefined;
  let transport: 'http' | 'sse' | undefined;
  let replace = false;
  for (let i = 0; i < options.length; i += 1) {
    const option = options[i] ?? '';
    const [flag, inline] = option.startsWith('--') ? splitInline(option) : [option, undefined];
    const value = (): string | undefined => inline ?? options[++i];
    if (flag === '--env') {
      const pair = value();
      const equals = pair?.indexOf('=') ?? -1;
      if (pair === undefined || equals <= 0) {
        return {
          ok: false,
          error: `--env takes KEY=VALUE, e.g. --env GITHUB_TOKEN='\${GITHUB_TOKEN}'`,
        };
      }
      const key = pair.slice(0, equals);
      if (Object.hasOwn(env, key)) return { ok: false, error: `--env ${key} is given twice` };
      env[key] = pair.slice(equals + 1);
    } else if (flag === '--url') {
      url = value();
      if (url === undefined || url === '') return { ok: false, error: '--url takes an address' };
    } else if (flag === '--type') {
      const type = value();
      if (type !== 'http' && type !== 'sse') {
        return {
          ok: false,
          error: '--type is http (Streamable HTTP) or sse (the legacy transport)',
        };
      }
      transport = type;
    } else if (flag === '--header') {
      const pair = value();
      const equals = pair?.indexOf('=') ?? -1;
      if (pair === undefined || equals <= 0) {
        return {
          ok: false,
          error: `--header takes NAME=VALUE, e.g. --header 'Authorization=Bearer \${API_TOKEN}'`,
        };
      }
      const key = pair.slice(0, equals);
      if (Object.keys(headers).some((k) => k.toLowerCase() === key.toLowerCase())) {
        return { ok: false, error: `--header ${key} is given twice` };
      }
      headers[key] = pair.slice(equals + 1);
    } else if (flag === '--cwd') {
      const dir = value();
      if (dir === undefined || dir === '') return { ok: false, error: '--cwd takes a folder' };
      workdir = path.resolve(cwd, dir);
    } else if (flag === '--replace' && inline === undefined) {
      replace = true;
    } else if (flag.startsWith('-')) {
      return { ok: false, error: `unknown option '${option}'` };
    } else if (name === undefined) {
      name = option;
    } else {
      return {
        ok: false,
        error: `put '--' before the command: switchyard add ${name} -- ${option} ...`,
      };
    }
  }
  if (name === undefined) return { ok: false, error: 'give the server a name' };
  if (url !== undefined) {
    if (separator !== -1) {
      return { ok: false, error: 'a server has either a --url or a command after --, not both' };
    }
    if (Object.keys(env).length > 0 || workdir !== undefined) {
      return {
        ok: false,
        error: '--env and --cwd are for a local server; a remote one runs elsewhere',
      };
    }
    return {
      ok: true,
      replace,
      server: {
        name,
        url,
        ...(transport === undefined ? {} : { transport }),
        ...(Object.keys(headers).length === 0 ? {} : { headers }),
      },
    };
  }
  if (Object.keys(headers).length > 0 || transport !== undefined) {
    return { ok: false, error: '--header and --type are for a remote server: give its --url' };
  }
  if (command === undefined || command === '') {
    return {
      ok: false,
      error: `give the command after '--': switchyard add ${name} -- <command> [args...]`,
    };
  }
  // `./server` or `bin/server` means a file here; a bare name is looked up on PATH by the host.
  const program =
    /[\\/]/.test(command) && !path.isAbsolute(command) ? path.resolve(cwd, command) : command;
  return {
    ok: true,
    replace,
    server: {
      name,
      command: program,
      args,
      ...(Object.keys(env).length === 0 ? {} : { env }),
      ...(workdir === undefined ? {} : { cwd: workdir }),
    },
  };
}

function splitInline(option: string): [string, string | undefined] {
  const equals = option.indexOf('=');
  return equals === -1 ? [option, undefined] : [option.slice(0, equals), option.slice(equals + 1)];
}

/** An env or header value as printed: its `${VAR}` references as is, a literal value only by
 * its length (a pasted token never reaches the terminal's scrollback). */
function shownEnvValue(value: string): string {
  if (/^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(value)) return value;
  const template = /^([A-Za-z]+ )(\$\{[A-Za-z_][A-Za-z0-9_]*\})$/.exec(value);
  if (template !== null) return value; // "Bearer ${TOKEN}"
  return `(a literal value, ${value.length} characters)`;
}

/**
 * What the approval covers, as `add` prints it: the program, and for a Windows npm shim (decision
 * 0014) the script it runs before the entry's args and the shim it was read from. Pure.
 */
export function runsLines(added: Pick<AddedServer, 'executable' | 'shim'>): string[] {
  if (added.executable === null) return ['  runs:         ?'];
  if (added.shim === null) return [`  runs:         ${added.executable}`];
  return [
    `  runs:         ${formatCommandLine([added.executable, ...added.shim.prefixArgs])} + the args`,
    `                ${describeShim(added.shim)}`,
  ];
}

export async function add(io: CliIo, argv: readonly string[]): Promise<number> {
  const parsed = parseAddArguments(argv, process.cwd());
  if (!parsed.ok) {
    io.err(`switchyard add: ${parsed.error}\n${ADD_USAGE}`);
    return 2;
  }
  return withTrustStore(io, 'add', async (trust, env, audit) => {
    const added = await addUserServer(
      parsed.server,
      { replace: parsed.replace, requireCommand: true },
      { env, platform: io.platform, trust },
    );
    audit.append(writtenBySwitchyard(added.name, added.fingerprint));
    const { entry } = added;
    if ('url' in entry) {
      const lines = [
        `${added.replaced ? 'Replaced' : 'Added'} '${added.name}' in ${added.configFile}:`,
        `  url:          ${entry.url}${entry.type === undefined ? '' : ` (${entry.type})`}`,
        ...Object.entries(entry.headers ?? {}).map(
          ([k, v]) => `  header:       ${k}: ${shownEnvValue(v)}`,
        ),
        `Approved to connect to exactly this (fingerprint ${added.fingerprint ?? '?'}); a running host connects now.`,
      ];
      io.out(`${lines.join('\n')}\n`);
      return 0;
    }
    const lines = [
      `${added.replaced ? 'Replaced' : 'Added'} '${added.name}' in ${added.configFile}:`,
      `  command line: ${formatCommandLine([entry.command, ...(entry.args ?? [])])}`,
      ...Object.entries(entry.env ?? {}).map(
        ([k, v]) => `  env:          ${k}=${shownEnvValue(v)}`,
      ),
      ...(entry.cwd === undefined ? [] : [`  cwd:          ${entry.cwd}`]),
    ];
    // requireCommand: a command that is not found was refused above, with nothing written.
    lines.push(
      ...runsLines(added),
      `Approved to run exactly this (fingerprint ${added.fingerprint ?? '?'}); a running host starts it now.`,
    );
    if (!path.isAbsolute(entry.command)) {
      lines.push(
        `Found '${entry.command}' on the PATH the host uses (recorded by 'switchyard install', then this terminal's). If the host reports it changed or not found, add it again with the absolute path.`,
      );
    }
    io.out(`${lines.join('\n')}\n`);
    return 0;
  });
}

/** The audit entry of a server Switchyard wrote and approved as written. */
export function writtenBySwitchyard(server: string, fingerprint: string | null): AuditEntry {
  return {
    event: 'trust',
    server,
    decision: 'written-by-switchyard',
    ...(fingerprint === null ? {} : { fingerprint }),
  };
}

/**
 * Opens the trust store of this home and runs `run` with the environment the host would have
 * (the PATH 'switchyard install' recorded comes first, so a command resolves here as it will in
 * the host and the approval matches) and the home's audit log (its entries say `via: cli`),
 * printing errors the way the other commands do: a HostError's message says what to do next.
 */
export async function withTrustStore(
  io: CliIo,
  command: string,
  run: (trust: TrustStore, env: NodeJS.ProcessEnv, audit: AuditLog) => Promise<number>,
): Promise<number> {
  let audit: AuditLog | undefined;
  try {
    const context = await hostStartContext(io.env, io.platform);
    for (const warning of context.warnings) io.err(`switchyard ${command}: ${warning}\n`);
    const home = switchyardHome(context.env, io.platform);
    const trust = await TrustStore.open(home);
    for (const warning of trust.takeWarnings())
      io.err(`switchyard ${command}: ${warning.message}\n`);
    audit = new AuditLog({
      file: path.join(home, AUDIT_FILE_NAME),
      via: 'cli',
      onError: (error) => {
        io.err(`switchyard ${command}: audit log: ${messageOf(error)}\n`);
      },
    });
    return await run(trust, context.env, audit);
  } catch (error) {
    if (
      error instanceof HostError ||
      error instanceof ConfigError ||
      error instanceof TrustStoreError ||
      // Another Switchyard held config.json or trust.json too long: its message says what to do.
      error instanceof FileLockTimeoutError
    ) {
      io.err(`switchyard ${command}: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await audit?.flush();
  }
}
