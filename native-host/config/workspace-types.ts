import type { JsonPath } from './json-format';
import type { WorkspaceWarning, WorkspaceWarningKind } from './located-warning';
import type { ServerEntry } from './schema';

/** The shapes the workspace tier's modules pass between them; workspace.ts re-exports the public
 * ones. */

/** The fields of an entry that decide what runs or what is contacted (D6 fingerprints exactly
 * these). */
export const LAUNCH_FIELDS = ['command', 'args', 'env', 'cwd', 'remote'] as const;
export type LaunchField = (typeof LAUNCH_FIELDS)[number];

/**
 * One entry of a workspace file, checked with the user tier's rules. Only the fields the file
 * wrote are present (no defaults): an entry named like a user-tier server may set just `env`, and
 * a default `args: []` must not count as the workspace replacing the user's args. `command`
 * missing means the entry can only extend a same-named user-tier server (see mergeTiers).
 * Variables are substituted and a relative `cwd` is absolute, resolved against the root.
 */
export interface WorkspaceServer extends Partial<ServerEntry> {
  readonly name: string;
  /** Absolute path of the file the entry came from. */
  readonly file: string;
  /** Keys in the entry that claim trust (`approved`, `alwaysAllow`, ...); all are ignored. */
  readonly ignoredTrustClaims: string[];
}

export interface WorkspaceConfig {
  /** The workspace folder, normalized (no trailing separator). */
  readonly root: string;
  /** Entries of `.mcp.json`, then those of `.vscode/mcp.json` not shadowed by it. */
  readonly servers: WorkspaceServer[];
  readonly warnings: WorkspaceWarning[];
}

export interface WorkspaceLoadOptions {
  /** What `${userHome}` stands for; default `os.homedir()`. */
  readonly homedir?: string;
}

/** Why one entry was skipped, before it is located in the file. */
export interface EntryProblem {
  readonly kind: WorkspaceWarningKind;
  /** Path inside the entry. */
  readonly at: JsonPath;
  readonly detail: string;
}
