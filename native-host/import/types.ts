/**
 * What a converter makes of another MCP client's configuration file (issue 5, "Import"). A
 * converter is pure: (file text, path, context) -> entries it could convert and problems, or a
 * ConfigError (config/load.ts) when the file as a whole cannot be read (not JSON/TOML, wrong
 * top-level shape), in which case nothing from it may be imported.
 */

import type { RemoteEndpoint } from '../shared/server-spec';

/** A server as it will be written to config.json, checked by the same schema the loader uses:
 * a local (stdio) one or a remote one. */
export type ImportedEntry = ImportedLocalEntry | ImportedRemoteEntry;

/** A local server: the launch fields, with `${VAR}` in env values kept as written. */
export interface ImportedLocalEntry {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Absolute. */
  readonly cwd?: string;
  /** The source client has the server switched off. */
  readonly disabled?: boolean;
}

/** A remote server: where the host connects, with `${VAR}` in header values kept as written. */
export interface ImportedRemoteEntry {
  readonly remote: RemoteEndpoint;
  /** The source client has the server switched off. */
  readonly disabled?: boolean;
}

/** Whether `entry` is a remote server. */
export function isRemoteImport(entry: ImportedEntry): entry is ImportedRemoteEntry {
  return 'remote' in entry;
}

export interface ConvertedServer {
  /** A valid Switchyard server name (serverNameProblem), unique in the result. */
  readonly name: string;
  readonly entry: ImportedEntry;
  /** Things the conversion dropped or changed, one sentence each, for the preview. */
  readonly notes: readonly string[];
}

export interface ConvertProblem {
  /** The server concerned (as sanitized for display), when the problem is one entry's. */
  readonly name?: string;
  /** Why it cannot be imported and, where there is one, what to do instead. */
  readonly reason: string;
}

export interface ConvertResult {
  readonly entries: ConvertedServer[];
  readonly problems: ConvertProblem[];
}

/** What a converter needs besides the text: where `${userHome}` is, and which path rules apply. */
export interface ConvertContext {
  readonly homedir: string;
  readonly platform: NodeJS.Platform;
}

/** A converter for one client's file format. */
export type Converter = (text: string, file: string, context: ConvertContext) => ConvertResult;
