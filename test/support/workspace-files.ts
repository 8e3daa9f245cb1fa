import path from 'node:path';
import type { ReadConfigFile } from '../../native-host/config/load';
import { loadWorkspace } from '../../native-host/config/workspace';
import type { WorkspaceConfig } from '../../native-host/config/workspace';

/** In-memory workspace files for the tests of native-host/config/workspace*.ts. */

export const ROOT = '/home/u/repo';
export const MCP = path.join(ROOT, '.mcp.json');
export const VSCODE = path.join(ROOT, '.vscode', 'mcp.json');
export const HOME = '/home/u';

/** An fs-style error with `code`, as a reader throws it. */
export const errno = (code: string) => Object.assign(new Error(`${code}: failed`), { code });

/** A reader over in-memory files; anything else is missing. */
export function files(contents: Readonly<Record<string, string>>): ReadConfigFile {
  return (file) => {
    const text = contents[file];
    return text === undefined ? Promise.reject(errno('ENOENT')) : Promise.resolve(text);
  };
}

/** loadWorkspace over in-memory files, with HOME as the home folder. */
export const load = (contents: Readonly<Record<string, string>>, root = ROOT) =>
  loadWorkspace(root, files(contents), { homedir: HOME });

/** A `.mcp.json` with the given servers. */
export const mcp = (servers: Record<string, unknown>) => JSON.stringify({ mcpServers: servers });
/** A `.vscode/mcp.json` with the given servers. */
export const vscode = (servers: Record<string, unknown>) => JSON.stringify({ servers });

/** The distinct warning kinds of a loaded workspace, sorted. */
export const kinds = (config: WorkspaceConfig) =>
  [...new Set(config.warnings.map((w) => w.kind))].sort();
