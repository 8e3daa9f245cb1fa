import type { ImportClient, ImportSelection } from '../../protocol/import';
import { ImportClientSchema } from '../../protocol/import';
import { loadConfigFile, type ConfigError } from '../config/load';
import { isRecord } from '../../protocol/guards';
import { defaultSourcePath, type PathEnvironment } from './paths';
import {
  planImport,
  resolveSelections,
  ImportRefusal,
  type CurrentServers,
  type ImportWrite,
  type PlanSource,
  type SourceInput,
} from './plan';
import { readSource, type ReadSourceFile } from './read-source';
import type { ConvertResult, ImportedEntry } from './types';
import { messageOf } from '../../protocol/guards';

/**
 * Import as the CLI and the host run it: read the sources and config.json, plan, and apply
 * through an injected `addServer` (the path that writes a user-tier entry and approves exactly
 * its launch, so imported servers count as written by Switchyard). Nothing here prompts or prints.
 */

/** Writes one server to config.json as written by Switchyard (entry + launch approval). */
export type AddServer = (name: string, entry: ImportedEntry) => Promise<void>;

export interface ImportEnvironment extends PathEnvironment {
  /** `$SWITCHYARD_HOME/config.json`. */
  readonly configFile: string;
  readonly read?: ReadSourceFile;
}

/** A file to import from: a client's default file, or one the user named (`--file`). */
export interface SourceFile {
  readonly client: ImportClient;
  readonly file: string;
}

/** Every client, in the order previews list them. */
const ALL_CLIENTS: readonly ImportClient[] = ImportClientSchema.options;

/** The default file of each of `clients` (all of them when undefined), deduplicated. */
export function defaultSources(
  clients: readonly ImportClient[] | undefined,
  where: PathEnvironment,
): SourceFile[] {
  const chosen = ALL_CLIENTS.filter((client) => clients === undefined || clients.includes(client));
  return chosen.map((client) => ({ client, file: defaultSourcePath(client, where) }));
}

/**
 * config.json's user-tier servers, by name. A name whose entry Switchyard cannot load maps to
 * undefined (it still takes the name). Throws ConfigError when config.json cannot be read whole:
 * an import must not write into a file the user broke by hand.
 */
export async function readCurrentServers(configFile: string): Promise<CurrentServers> {
  const loaded = await loadConfigFile(configFile);
  const current = new Map<string, ImportedEntry | undefined>();
  const raw = loaded.raw['mcpServers'];
  if (isRecord(raw)) for (const name of Object.keys(raw)) current.set(name, undefined);
  for (const server of loaded.servers) {
    if (server.remote !== undefined) {
      current.set(server.name, {
        remote: server.remote,
        ...(server.disabled ? { disabled: true } : {}),
      });
      continue;
    }
    current.set(server.name, {
      command: server.command,
      args: server.args,
      env: server.env,
      ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
      ...(server.disabled ? { disabled: true } : {}),
    });
  }
  return current;
}

/** Reads and converts each of `sources` (in parallel, reported in order). */
export function readSources(
  sources: readonly SourceFile[],
  environment: ImportEnvironment,
): Promise<SourceInput[]> {
  return Promise.all(
    sources.map(async ({ client, file }) => ({
      client,
      file,
      outcome: await readSource(client, file, environment, environment.read),
    })),
  );
}

/** Reads and converts `sources` and plans them against config.json. */
export async function previewImport(
  sources: readonly SourceFile[],
  environment: ImportEnvironment,
): Promise<PlanSource[]> {
  const current = await readCurrentServers(environment.configFile);
  return planImport(current, await readSources(sources, environment));
}

/** The converted files among `read`, by client, for applyConverted. */
export function convertedOf(
  read: readonly SourceInput[],
): Map<ImportClient, { file: string; result: ConvertResult }> {
  const converted = new Map<ImportClient, { file: string; result: ConvertResult }>();
  for (const { client, file, outcome } of read) {
    if (outcome.state === 'found') converted.set(client, { file, result: outcome.result });
  }
  return converted;
}

/** A source whose file could not be read: nothing may be imported from it. */
export class ImportSourceFailure extends Error {
  override readonly name = 'ImportSourceFailure';
  readonly client: ImportClient;
  readonly error: ConfigError;

  constructor(client: ImportClient, error: ConfigError) {
    super(error.message);
    this.client = client;
    this.error = error;
  }
}

export interface ImportApplied {
  readonly written: ImportWrite[];
  readonly unchanged: ImportWrite[];
}

/**
 * Applies `selections` from the clients' default files: every source is read again and every
 * selection checked (resolveSelections) before the first write, so a file that became malformed
 * (ImportSourceFailure), an entry that changed since the preview or a name now taken
 * (ImportRefusal) write nothing. Then each entry is written in order with `addServer`.
 */
export async function applyImport(
  selections: readonly ImportSelection[],
  environment: ImportEnvironment,
  addServer: AddServer,
): Promise<ImportApplied> {
  const clients = [...new Set(selections.map((s) => s.source))];
  const sources = defaultSources(clients, environment);
  const converted = await convertSources(sources, environment);
  return applyConverted(selections, converted, environment.configFile, addServer);
}

/** Reads and converts `sources`; throws ImportSourceFailure for the first unreadable one. */
async function convertSources(
  sources: readonly SourceFile[],
  environment: ImportEnvironment,
): Promise<Map<ImportClient, { file: string; result: ConvertResult }>> {
  const read = await readSources(sources, environment);
  for (const { client, outcome } of read) {
    if (outcome.state === 'error') throw new ImportSourceFailure(client, outcome.error);
  }
  return convertedOf(read);
}

/** Checks every selection against config.json as it is now, then writes them in order. */
export async function applyConverted(
  selections: readonly ImportSelection[],
  converted: ReadonlyMap<ImportClient, { readonly file: string; readonly result: ConvertResult }>,
  configFile: string,
  addServer: AddServer,
): Promise<ImportApplied> {
  const current = await readCurrentServers(configFile);
  const { writes, unchanged } = resolveSelections(current, converted, selections);
  const written: ImportWrite[] = [];
  for (const write of writes) {
    try {
      await addServer(write.server, write.entry);
    } catch (error) {
      throw new ImportWriteFailure(written, write, error);
    }
    written.push(write);
  }
  return { written, unchanged };
}

/** Writing one entry failed; those before it were written (and stay: each is complete). */
export class ImportWriteFailure extends Error {
  override readonly name = 'ImportWriteFailure';
  readonly written: readonly ImportWrite[];
  readonly failed: ImportWrite;

  constructor(written: readonly ImportWrite[], failed: ImportWrite, cause: unknown) {
    super(`Writing '${failed.server}' failed: ${messageOf(cause)}`, { cause });
    this.written = [...written];
    this.failed = failed;
  }
}

export { ImportRefusal };
