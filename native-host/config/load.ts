import { z } from 'zod';
import { JsonSyntaxError, scanJson } from './json-scan';
import { capWarnings, formatJsonPath, lineColumn, positionsIn } from './json-format';
import { isFullyAbsolute } from './workspace-folder';
import type { ScannedJson } from './json-scan';
import type { JsonPath } from './json-format';
import {
  ConfigFileSchema,
  ServerEntrySchema,
  UNSUPPORTED_TRANSPORT,
  serverNameProblem,
} from './schema';
import type { ServerConfig } from './schema';
import { readFileBounded } from '../shared/bounded-read';

/**
 * Reading the user-tier config file. A file that is not JSON, or whose top level or `mcpServers`
 * has the wrong shape, is rejected whole (ConfigError): guessing what a broken file meant could
 * start the wrong thing. A bad entry only costs that entry, with a warning that says where.
 */

/** Largest config file read. Real ones are a few kilobytes. */
export const MAX_CONFIG_FILE_BYTES = 1_048_576;

export interface ConfigErrorInit {
  /** The file at fault; omitted when the problem is not in a file (an environment variable). */
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  /** JSON path in the file (`mcpServers.github.args[2]`), or the environment variable at fault. */
  readonly key?: string;
  /** What is wrong and what to do about it. */
  readonly detail: string;
  readonly cause?: unknown;
}

/**
 * The configuration cannot be used at all. `message` is the full text to show the user,
 * `file:line:column: key: detail`; the parts are also fields for a UI that lays them out.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly key: string | undefined;
  readonly detail: string;

  constructor(init: ConfigErrorInit) {
    super(formatLocated(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.file = init.file;
    this.line = init.line;
    this.column = init.column;
    this.key = init.key;
    this.detail = init.detail;
  }
}

/** Why a warning was raised: an entry skipped, a transport not supported yet, a key written
 * twice (the later one is used), or a file that has `servers` (VS Code's key) instead. */
export type ConfigWarningKind =
  'invalid-entry' | 'unsupported-transport' | 'duplicate-key' | 'servers-key';

/** Something the user should fix; loading went on. `message` is the full text to show. */
export interface ConfigWarning {
  readonly kind: ConfigWarningKind;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** JSON path of the problem, `mcpServers.github.args[2]`. */
  readonly key: string;
  /** The server skipped or affected, when there is one. */
  readonly server?: string;
  readonly message: string;
}

export interface ConfigLoadResult {
  /** Valid entries in file order, disabled ones included (callers decide not to start them). */
  readonly servers: ServerConfig[];
  readonly warnings: ConfigWarning[];
  /** The whole top-level object as parsed, for keys later features read. */
  readonly raw: Record<string, unknown>;
}

/**
 * Parses the text of a config file. Pure. `file` is used only in messages. A leading UTF-8 BOM is
 * ignored. Throws ConfigError (with line and column where there is one) when the text is not
 * strict JSON (comments and trailing commas included) or the top level or `mcpServers` has the
 * wrong shape; returns each malformed or unsupported entry as a warning instead of a server.
 */
export function parseConfig(text: string, file: string): ConfigLoadResult {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  // UTF-16 length never exceeds UTF-8 byte length, so this never refuses a file under the cap.
  if (body.length > MAX_CONFIG_FILE_BYTES) throw tooLarge(file);
  if (body.trim() === '') {
    throw new ConfigError({
      file,
      detail: 'the file is empty: write {"mcpServers": {}} in it, or delete it',
    });
  }
  const scanned = scan(body, file);
  const positionOf = positionsIn(body);
  const at = (path: JsonPath, onKey = false) => positionOf(offsetOf(scanned, path, onKey));

  const top = ConfigFileSchema.safeParse(scanned.value);
  if (!top.success) {
    const issue = top.error.issues[0];
    const path = issue === undefined ? [] : toJsonPath(issue.path);
    throw new ConfigError({
      file,
      ...at(path),
      key: formatJsonPath(path) || undefined,
      detail: `${issue?.message ?? 'wrong shape'}. No servers were loaded from this file; fix it and try again`,
    });
  }

  const found: { offset: number; warning: ConfigWarning }[] = [];
  const warn = (kind: ConfigWarningKind, path: JsonPath, onKey: boolean, detail: string) => {
    const offset = offsetOf(scanned, path, onKey);
    const key = formatJsonPath(path);
    const server = path[0] === 'mcpServers' && typeof path[1] === 'string' ? path[1] : undefined;
    const position = positionOf(offset);
    const warning: ConfigWarning = {
      kind,
      file,
      ...position,
      key,
      ...(server === undefined ? {} : { server }),
      message: formatLocated({ file, ...position, key, detail }),
    };
    found.push({ offset, warning });
  };

  for (const duplicate of scanned.duplicates) {
    warn(
      'duplicate-key',
      duplicate.path,
      true,
      'this key appears twice in the same object; the last one is used. Remove the other',
    );
  }

  const servers: ServerConfig[] = [];
  const mcpServers = top.data.mcpServers;
  if (mcpServers === undefined && top.data.servers !== undefined) {
    warn(
      'servers-key',
      ['servers'],
      true,
      'Switchyard reads servers from "mcpServers"; "servers" is the VS Code format. Rename the key',
    );
  }
  for (const [name, value] of Object.entries(mcpServers ?? {})) {
    const entryPath = ['mcpServers', name];
    const nameProblem = serverNameProblem(name);
    if (nameProblem !== undefined) {
      warn('invalid-entry', entryPath, true, `${nameProblem}. This server was skipped`);
      continue;
    }
    const entry = ServerEntrySchema.safeParse(value);
    if (entry.success) {
      const cwd = 'cwd' in entry.data ? entry.data.cwd : undefined;
      if (cwd !== undefined && !isFullyAbsolute(cwd)) {
        // Resolved against where the host or the CLI happened to start: a repository someone
        // runs `switchyard tools` in would choose the folder, and what npx or python finds there.
        warn(
          'invalid-entry',
          [...entryPath, 'cwd'],
          false,
          `cwd must be an absolute folder, not ${JSON.stringify(cwd)}. Server "${name}" was skipped; fix the entry and reload`,
        );
        continue;
      }
      servers.push({ name, ...entry.data });
      continue;
    }
    const [first, ...rest] = entry.error.issues;
    if (first === undefined) continue; // zod reports at least one issue on failure
    const unsupported = first.code === 'custom' && first.params?.code === UNSUPPORTED_TRANSPORT;
    const more =
      rest.length === 0 ? '' : ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})`;
    warn(
      unsupported ? 'unsupported-transport' : 'invalid-entry',
      [...entryPath, ...toJsonPath(first.path)],
      first.code === 'invalid_key',
      `${first.message}${more}. Server "${name}" was skipped; fix the entry and reload`,
    );
  }

  found.sort((a, b) => a.offset - b.offset);
  return { servers, warnings: capWarnings(found.map((f) => f.warning)), raw: top.data };
}

/** Reads a config file's bytes; the default, readFileBounded, never reads more than needed. */
export type ReadConfigFile = (path: string) => Promise<Uint8Array | string>;

/**
 * Loads the config file at `path`. A missing file is an empty config (no servers, no warnings):
 * a fresh install has none. An unreadable file, one larger than MAX_CONFIG_FILE_BYTES, or one
 * that is not UTF-8 throws ConfigError; otherwise as parseConfig.
 */
export async function loadConfigFile(
  path: string,
  readFile: ReadConfigFile = (file) => readFileBounded(file, MAX_CONFIG_FILE_BYTES),
): Promise<ConfigLoadResult> {
  let data: Uint8Array | string;
  try {
    data = await readFile(path);
  } catch (error) {
    const code = ErrnoSchema.safeParse(error).data?.code;
    if (code === 'ENOENT') return { servers: [], warnings: [], raw: {} };
    throw new ConfigError({ file: path, detail: readFailure(code), cause: error });
  }
  return parseConfig(typeof data === 'string' ? data : decodeConfigBytes(data, path), path);
}

const ErrnoSchema = z.object({ code: z.string() });

function readFailure(code: string | undefined): string {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied: make the file readable by your user account';
    case 'EISDIR':
      return 'this is a folder, not a file: remove it or point SWITCHYARD_HOME elsewhere';
    case 'ENOTDIR':
      return 'a part of this path is a file, not a folder: check SWITCHYARD_HOME';
    case undefined:
    default:
      return `cannot read the file (${code ?? 'unknown error'}); check that it exists and is readable`;
  }
}

/** The text of config.json's bytes; ConfigError for UTF-16 or anything not valid UTF-8. */
export function decodeConfigBytes(bytes: Uint8Array, file: string): string {
  if (bytes.length > MAX_CONFIG_FILE_BYTES) throw tooLarge(file);
  // Notepad's "Unicode" is UTF-16 with a byte order mark: name it, it is a common mistake.
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new ConfigError({ file, detail: 'the file is saved as UTF-16: save it as UTF-8' });
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (error) {
    throw new ConfigError({
      file,
      detail: 'the file is not valid UTF-8: save it as UTF-8',
      cause: error,
    });
  }
}

function tooLarge(file: string): ConfigError {
  return new ConfigError({
    file,
    detail: `the file is larger than ${MAX_CONFIG_FILE_BYTES} bytes; a config this large is not supported`,
  });
}

function scan(body: string, file: string): ScannedJson {
  try {
    return scanJson(body);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    throw new ConfigError({
      file,
      ...lineColumn(body, error.offset),
      detail: `${error.reason}. The file is not valid JSON, so no servers were loaded from it`,
      cause: error,
    });
  }
}

/** Offset of the value at `path` (or of its key, if `onKey`), or of its nearest ancestor in the
 * file when the path is not there (a missing `command` is reported at its entry's name). */
function offsetOf(scanned: ScannedJson, path: JsonPath, onKey: boolean): number {
  for (let length = path.length; length >= 0; length--) {
    const location = scanned.locate(path.slice(0, length));
    if (location === undefined) continue;
    const wantKey = onKey || length < path.length;
    return wantKey && location.keyOffset !== undefined ? location.keyOffset : location.valueOffset;
  }
  return 0;
}

function toJsonPath(path: readonly PropertyKey[]): JsonPath {
  return path.map((segment) => (typeof segment === 'symbol' ? String(segment) : segment));
}

function formatLocated(init: ConfigErrorInit): string {
  const position = init.line === undefined ? '' : `:${init.line}:${init.column ?? 1}`;
  const where = init.file === undefined ? '' : `${init.file}${position}: `;
  const key = init.key === undefined || init.key === '' ? '' : `${init.key}: `;
  return `${where}${key}${init.detail}`;
}
