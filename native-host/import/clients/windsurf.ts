import { mcpServersConverter } from '../server-map';
import type { Dialect } from '../variables';

/**
 * Windsurf, `~/.codeium/windsurf/mcp_config.json`: `mcpServers` with `command`, `args`, `env`,
 * `disabled`, or `serverUrl` (and `url`) for a remote server. Windsurf expands `${env:NAME}`
 * and `${file:/path}` in those fields.
 */
export const WINDSURF: Dialect = {
  label: 'Windsurf',
  launchVariables: 'expands',
  envReferences: 'prefixed',
  predefined: [],
};

export const convertWindsurf = mcpServersConverter(WINDSURF);
