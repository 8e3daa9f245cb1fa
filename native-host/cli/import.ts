import os from 'node:os';
import path from 'node:path';
import {
  ImportClientSchema,
  type ImportClient,
  type ImportLaunch,
  type ImportSelection,
  type ImportSourcePreview,
} from '../../protocol/import';
import { ConfigError } from '../config/load';
import { configPath, switchyardHome } from '../config/paths';
import { addUserServer } from '../host/user-servers';
import { CLIENTS } from '../import/clients';
import {
  ImportRefusal,
  ImportWriteFailure,
  applyConverted,
  convertedOf,
  defaultSources,
  readCurrentServers,
  readSources,
  type SourceFile,
} from '../import/importer';
import { planImport, type ImportWrite, type PlanSource } from '../import/plan';
import { shown, sourcePreview } from '../import/preview';
import { isRemoteImport } from '../import/types';
import { newUserServer, prepareImport } from '../import/write-servers';
import { withTrustStore, writtenBySwitchyard } from './add';
import type { CliIo } from './io';
import { confirm } from './prompt';

/**
 * `switchyard import`: reads other MCP clients' configuration files, shows what would be added,
 * what is already there, what conflicts and what cannot be converted, and (after a y/N, or with
 * --yes) writes the new servers to config.json as Switchyard, approved to run exactly as shown.
 * What is written is what was shown: the preview and the write use the same read of each file.
 */

export const IMPORT_USAGE =
  'usage: switchyard import [--from CLIENT]... [--file PATH --format CLIENT] [--rename] [--dry-run] [--yes]\n' +
  `  CLIENT: ${ImportClientSchema.options.join(', ')}\n` +
  '  --rename imports a server whose name is taken under a suggested name (name-client)\n';

export interface ImportArguments {
  /** Clients whose default files are read; undefined (and no `file`) means all of them. */
  readonly from: readonly ImportClient[] | undefined;
  /** A file the user names, read as `format`. */
  readonly file: SourceFile | undefined;
  readonly rename: boolean;
  readonly dryRun: boolean;
  readonly yes: boolean;
}

/** Pure: reads import's arguments; a relative `--file` is taken from `cwd`. */
export function parseImportArguments(
  argv: readonly string[],
  cwd: string,
): { ok: true; args: ImportArguments } | { ok: false; error: string } {
  const from: ImportClient[] = [];
  let file: string | undefined;
  let format: ImportClient | undefined;
  const flags = { rename: false, dryRun: false, yes: false };
  for (let i = 0; i < argv.length; i += 1) {
    const option = argv[i] ?? '';
    const equals = option.indexOf('=');
    const flag = option.startsWith('--') && equals !== -1 ? option.slice(0, equals) : option;
    const inline = flag === option ? undefined : option.slice(equals + 1);
    const value = (): string | undefined => inline ?? argv[++i];
    const client = (): { client: ImportClient } | { error: string } => {
      const given = value();
      const parsed = ImportClientSchema.safeParse(given);
      if (parsed.success) return { client: parsed.data };
      const named = given === undefined ? '' : `, not '${given}'`;
      return { error: `${flag} takes one of ${ImportClientSchema.options.join(', ')}${named}` };
    };
    switch (flag) {
      case '--from': {
        const chosen = client();
        if ('error' in chosen) return { ok: false, error: chosen.error };
        if (!from.includes(chosen.client)) from.push(chosen.client);
        break;
      }
      case '--format': {
        const chosen = client();
        if ('error' in chosen) return { ok: false, error: chosen.error };
        format = chosen.client;
        break;
      }
      case '--file': {
        const given = value();
        if (given === undefined || given === '') return { ok: false, error: '--file takes a path' };
        file = path.resolve(cwd, given);
        break;
      }
      case '--rename':
        flags.rename = true;
        break;
      case '--dry-run':
        flags.dryRun = true;
        break;
      case '--yes':
        flags.yes = true;
        break;
      default:
        return { ok: false, error: `unknown argument '${option}'` };
    }
  }
  if ((file === undefined) !== (format === undefined)) {
    return {
      ok: false,
      error: '--file and --format go together: --file ./project/.mcp.json --format claude-code',
    };
  }
  if (format !== undefined && from.includes(format)) {
    // An import's entries are named by client and name, so two files of one client in one run
    // could not be told apart when they are written.
    return {
      ok: false,
      error: `--file is already read as ${format}: import ${format}'s own file in a second run (switchyard import --from ${format})`,
    };
  }
  return {
    ok: true,
    args: {
      from: from.length === 0 ? undefined : from,
      file: file === undefined || format === undefined ? undefined : { client: format, file },
      ...flags,
    },
  };
}

const MARKS = { add: '+', same: '=', conflict: '!', 'cannot-convert': 'x' } as const;

/** How the preview names each remote transport. */
const TRANSPORT_WORDS = {
  'streamable-http': 'Streamable HTTP',
  sse: 'SSE',
  auto: 'Streamable HTTP, else SSE',
} as const;

/** One entry's launch on one line: the command line, or the url and transport, with env or
 * header names (never values), the folder and whether it is switched off. */
function launchLine(launch: ImportLaunch, disabled: boolean): string {
  const { remote } = launch;
  const head =
    remote === undefined
      ? launch.commandLine
      : `${remote.url} (${TRANSPORT_WORDS[remote.transport]})`;
  const extras = [
    ...(launch.envKeys.length > 0 ? [`env: ${launch.envKeys.join(', ')}`] : []),
    ...(remote !== undefined && remote.headerNames.length > 0
      ? [`headers: ${remote.headerNames.join(', ')}`]
      : []),
    ...(launch.cwd === null ? [] : [`cwd: ${launch.cwd}`]),
    ...(disabled ? ['switched off'] : []),
  ];
  return `${head}${extras.length === 0 ? '' : `  (${extras.join('; ')})`}`;
}

/**
 * The preview as terminal text. Pure; every string in `previews` is already sanitized. Env and
 * header values are never printed, only their names.
 */
export function formatImportPreview(
  previews: readonly ImportSourcePreview[],
  options: { readonly rename: boolean },
): string {
  const lines: string[] = [];
  for (const source of previews) {
    if (source.state === 'missing') {
      lines.push(`${source.label}: ${source.path}: not found`);
      continue;
    }
    if (source.state === 'error') {
      lines.push(`${source.label}: cannot be read: ${source.error ?? source.path}`);
      continue;
    }
    lines.push(
      `${source.label}: ${source.path}${source.entries.length === 0 ? ': no MCP servers' : ''}`,
    );
    for (const entry of source.entries) {
      const mark = MARKS[entry.action];
      const detail = entry.launch === null ? '' : launchLine(entry.launch, entry.disabled);
      switch (entry.action) {
        case 'add':
          lines.push(`  ${mark} ${entry.name}: ${detail}`);
          break;
        case 'same':
          lines.push(`  ${mark} ${entry.name}: ${entry.reason ?? 'already in config.json'}`);
          break;
        case 'conflict':
          lines.push(`  ${mark} ${entry.name}: ${entry.reason ?? 'the name is taken'}`);
          lines.push(`      this:     ${detail}`);
          lines.push(
            `      existing: ${entry.existing === null ? '(an entry that does not load)' : launchLine(entry.existing, false)}`,
          );
          lines.push(
            options.rename
              ? `      imported as '${entry.suggestedName ?? '?'}'`
              : `      not imported; --rename imports it as '${entry.suggestedName ?? '?'}'`,
          );
          break;
        case 'cannot-convert':
          lines.push(`  ${mark} ${entry.name}: ${entry.reason ?? 'cannot convert'}`);
          break;
      }
      for (const note of entry.notes) lines.push(`      note: ${note}`);
    }
    for (const warning of source.warnings) lines.push(`  ! ${warning}`);
  }
  return `${lines.join('\n')}\n`;
}

/** What `--yes` would write: every `add`, and with `rename` every conflict under its new name. */
export function importSelections(plan: readonly PlanSource[], rename: boolean): ImportSelection[] {
  const selections: ImportSelection[] = [];
  for (const source of plan) {
    for (const item of source.items) {
      if (item.action === 'add') {
        selections.push({ source: source.client, name: item.name, digest: item.digest });
      } else if (item.action === 'conflict' && rename) {
        selections.push({
          source: source.client,
          name: item.name,
          as: item.suggestedName,
          digest: item.digest,
        });
      }
    }
  }
  return selections;
}

/** What one written entry prints: its names, its source, and for a remote one where it
 * connects and the names of the headers it sends (never their values). Pure. */
export function importedLine(write: ImportWrite): string {
  const renamed = write.server === write.name ? '' : ` as '${write.server}'`;
  const line = `Imported '${write.name}'${renamed} from ${CLIENTS[write.client].label}`;
  if (!isRemoteImport(write.entry)) return `${line}.`;
  const { remote } = write.entry;
  const headers = Object.keys(remote.headers);
  const sent = headers.length === 0 ? '' : `, sending ${headers.map((h) => shown(h)).join(', ')}`;
  return `${line}: ${shown(remote.url)} (${TRANSPORT_WORDS[remote.transport]})${sent}.`;
}

export async function importCommand(io: CliIo, argv: readonly string[]): Promise<number> {
  const parsed = parseImportArguments(argv, process.cwd());
  if (!parsed.ok) {
    io.err(`switchyard import: ${parsed.error}\n${IMPORT_USAGE}`);
    return 2;
  }
  const { args } = parsed;
  const where = { platform: io.platform, homedir: os.homedir(), env: io.env };
  let configFile: string;
  try {
    configFile = configPath(switchyardHome(io.env, io.platform), io.platform);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.err(`switchyard import: ${error.message}\n`);
    return 1;
  }
  const sources = [
    ...(args.file === undefined ? [] : [args.file]),
    ...(args.file !== undefined && args.from === undefined ? [] : defaultSources(args.from, where)),
  ];
  const environment = { ...where, configFile };

  // One read of each file: the preview shows it and, if confirmed, the same entries are written.
  const read = await readSources(sources, environment);
  let plan: PlanSource[];
  try {
    plan = planImport(await readCurrentServers(configFile), read);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.err(
      `switchyard import: cannot read ${configFile}: ${error.message}\nNothing was imported; fix the file, then try again.\n`,
    );
    return 1;
  }
  io.out(formatImportPreview(plan.map(sourcePreview), { rename: args.rename }));

  const broken = plan.filter((source) => source.state === 'error');
  if (broken.length > 0) {
    io.err(
      `switchyard import: nothing was imported, because ${broken.map((s) => s.file).join(' and ')} cannot be read. Fix ${broken.length === 1 ? 'it' : 'them'}, or choose other clients with --from.\n`,
    );
    return 1;
  }
  const selections = importSelections(plan, args.rename);
  if (selections.length === 0) {
    io.out('Nothing to import.\n');
    return 0;
  }
  const count = `${selections.length} server${selections.length === 1 ? '' : 's'}`;
  if (args.dryRun) {
    io.out(
      `Dry run: nothing was written. Without --dry-run, ${count} would be added to ${configFile}.\n`,
    );
    return 0;
  }
  const ok =
    args.yes ||
    (await confirm(
      `Add ${count} to ${configFile}? They will run (a remote one: be connected to) exactly as shown, without asking again.`,
    ));
  if (!ok) {
    io.out(
      process.stdin.isTTY
        ? 'Nothing was imported.\n'
        : 'Nothing was imported: no terminal to ask (pass --yes to import).\n',
    );
    return 1;
  }
  return withTrustStore(io, 'import', async (trust, env, audit) => {
    const context = { env, platform: io.platform, trust };
    const notFound: { name: string; why: string }[] = [];
    try {
      const applied = await applyConverted(
        selections,
        convertedOf(read),
        configFile,
        async (name, entry) => {
          const { replace } = await prepareImport(configFile, name, entry);
          const added = await addUserServer(newUserServer(name, entry), { replace }, context);
          audit.append(writtenBySwitchyard(added.name, added.fingerprint));
          if (added.notFound !== null) notFound.push({ name, why: added.notFound });
        },
      );
      for (const write of applied.written) {
        io.out(`${importedLine(write)}\n`);
      }
      io.out(
        `${applied.written.length} server${applied.written.length === 1 ? '' : 's'} added to ${configFile}, approved to run (or connect to) as shown; a running host starts them now.\n`,
      );
    } catch (error) {
      if (error instanceof ImportWriteFailure) {
        const done = error.written.map((w) => `'${w.server}'`).join(', ');
        io.err(
          `switchyard import: ${error.message}\n${done === '' ? 'Nothing was imported.' : `Already imported: ${done}.`}\n`,
        );
        return 1;
      }
      if (error instanceof ImportRefusal) {
        io.err(`switchyard import: ${error.message} Nothing was imported.\n`);
        return 1;
      }
      throw error;
    }
    for (const { name, why } of notFound) {
      io.err(
        `switchyard import: '${name}' was imported but not approved: ${why}\n  Once the command exists, approve it with 'switchyard trust ${name}'.\n`,
      );
    }
    return 0;
  });
}
