import { mcpServersConverter } from '../server-map';
import type { Dialect } from '../variables';

/**
 * Cursor, `~/.cursor/mcp.json`: `mcpServers` with `command`, `args`, `env`, `envFile`, or `url`
 * for a remote server. Cursor expands `${env:NAME}`, `${userHome}`, `${workspaceFolder}`,
 * `${workspaceFolderBasename}`, `${pathSeparator}` and `${/}`.
 */
export const CURSOR: Dialect = {
  label: 'Cursor',
  launchVariables: 'expands',
  envReferences: 'prefixed',
  predefined: ['userHome', 'pathSeparator', '/'],
};

export const convertCursor = mcpServersConverter(CURSOR);
