import path from 'node:path';
import { fileWarning, locatedWarning, shownText } from './located-warning';
import type { WorkspaceWarning } from './located-warning';
import type { ReadConfigFile } from './load';
import { isFullyAbsolute, normalizeFolder } from './workspace-folder';
import { parseWorkspaceFile, unusableFile } from './workspace-parse';
import type { FileResult, WorkspaceFileSpec } from './workspace-parse';
import { readWorkspaceFile, readWorkspaceText } from './workspace-read';
import type { WorkspaceConfig, WorkspaceLoadOptions, WorkspaceServer } from './workspace-types';
import { predefinedVariables } from './workspace-variables';
import type { VariableContext } from './workspace-variables';

/**
 * The workspace tier (design.md section 2, D5): `.mcp.json` and `.vscode/mcp.json` in a profile's
 * workspace folder. These files are written by whoever wrote the repository, so (seed plan G1) a
 * clone-and-open must never be able to run anything, approve anything, or break the user's own
 * setup: a bad file costs only itself, with a warning, and nothing in it can claim trust.
 * Launching still goes through the trust gate (D6); this module decides only what the entries say.
 */

// The public entry of the workspace tier; its parts live beside it: reading (workspace-read.ts),
// parsing (workspace-parse.ts), variables (workspace-variables.ts), trust claims
// (workspace-claims.ts), the tier merge (workspace-merge.ts) and warnings (located-warning.ts).
export type { WorkspaceWarning, WorkspaceWarningKind } from './located-warning';
export { normalizeFolder } from './workspace-folder';
export { mergeTiers } from './workspace-merge';
export type { FieldSource, MergedServer } from './workspace-merge';
export { NotARegularFileError, readWorkspaceFile } from './workspace-read';
export { LAUNCH_FIELDS } from './workspace-types';
export type {
  LaunchField,
  WorkspaceConfig,
  WorkspaceLoadOptions,
  WorkspaceServer,
} from './workspace-types';

/**
 * The files read, in precedence order. A name in `.mcp.json` shadows the same name in
 * `.vscode/mcp.json` (the losing entry is dropped, not merged: a mix of two definitions is what
 * neither file says). `.mcp.json` wins because it is the cross-client file at the top of the
 * repository, the one a reviewer sees first.
 */
const WORKSPACE_FILES: readonly WorkspaceFileSpec[] = [
  { relative: '.mcp.json', serversKey: 'mcpServers', client: 'Claude Code' },
  { relative: path.join('.vscode', 'mcp.json'), serversKey: 'servers', client: 'VS Code' },
];

/** The files of `root` that make up its workspace tier, for watching (precedence order). */
export function workspaceFiles(root: string): string[] {
  return WORKSPACE_FILES.map((file) => path.join(root, file.relative));
}

/**
 * Loads the workspace tier of `root` (an absolute folder). Never throws and never rejects: a
 * missing file contributes nothing silently; an unreadable, oversized, non-UTF-8, non-JSON
 * (JSONC included) or wrongly shaped file contributes nothing, with a warning; a bad entry is
 * skipped with a warning naming file, line, column and key, the others kept. A relative root
 * loads nothing (warning). Stricter than the user tier where a repository could mislead:
 * - an entry with a duplicate key, or a server name written twice, is skipped (a reader of the
 *   file may see the first value while a parser uses the last);
 * - `envFile`, prompted inputs (`${input:...}`), `${command:...}`/`${config:...}`, and any
 *   variable other than `${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`,
 *   `${pathSeparator}` and `${/}` in command, args or cwd skip the entry (those five are
 *   substituted there and in env values; other `${...}` in env values are left for env.ts);
 * - a relative cwd (or one starting with `${workspaceFolder}`) must stay inside the root;
 * - trust claims (`approved`, `alwaysAllow`, `autoApprove`, `trust`, `fingerprint`, ...) are never
 *   read, only listed in `ignoredTrustClaims` and warned about.
 */
export async function loadWorkspace(
  root: string,
  readFile: ReadConfigFile = readWorkspaceFile,
  options: WorkspaceLoadOptions = {},
): Promise<WorkspaceConfig> {
  if (!isFullyAbsolute(root) || root.includes('\u0000')) {
    const detail = `the workspace folder ${shownText(root)} is not an absolute path; set the profile's workspace folder to a full path. Nothing was loaded from it`;
    return { root, servers: [], warnings: [fileWarning('invalid-root', root, detail)] };
  }
  const normalized = normalizeFolder(root);
  const variables = predefinedVariables(normalized, options.homedir);
  const servers: WorkspaceServer[] = [];
  const warnings: WorkspaceWarning[] = [];
  const claimed = new Map<string, string>(); // server name -> file that defined it first
  for (const spec of WORKSPACE_FILES) {
    const file = path.join(normalized, spec.relative);
    let loaded: FileResult;
    try {
      loaded = await loadFile(file, spec, readFile, { root: normalized, variables });
    } catch (error) {
      // A repository must not be able to stop the host, whatever the file does to a parser.
      const detail = `could not be loaded (${error instanceof Error ? error.name : 'error'}); no servers were loaded from it`;
      loaded = { servers: [], warnings: [fileWarning('invalid-file', file, detail)], names: [] };
    }
    warnings.push(...loaded.warnings);
    for (const { server, at } of loaded.servers) {
      const first = claimed.get(server.name);
      if (first === undefined) servers.push(server);
      else {
        const detail = `server "${server.name}" is also defined in ${first}, which takes precedence; this entry was ignored. Remove one of them`;
        warnings.push(locatedWarning('shadowed', file, at, detail, server.name));
      }
    }
    for (const name of loaded.names) if (!claimed.has(name)) claimed.set(name, file);
  }
  return { root: normalized, servers, warnings };
}

/** One file of the workspace: read, then parsed. */
async function loadFile(
  file: string,
  spec: WorkspaceFileSpec,
  readFile: ReadConfigFile,
  context: VariableContext,
): Promise<FileResult> {
  const read = await readWorkspaceText(file, readFile);
  if (read.kind === 'missing') return { servers: [], warnings: [], names: [] };
  if (read.kind === 'unusable') return unusableFile(file, read.detail);
  return parseWorkspaceFile(file, read.body, spec, context);
}
