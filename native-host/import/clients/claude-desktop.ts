import { mcpServersConverter } from '../server-map';
import type { Dialect } from '../variables';

/**
 * Claude Desktop, `claude_desktop_config.json`: `{"mcpServers": {"<name>": {"command", "args",
 * "env"}}}`. It expands no variables. It runs stdio servers only (remote ones are added in its
 * UI), but a `url` entry some guides paste there is read as the remote server it describes.
 */
export const CLAUDE_DESKTOP: Dialect = {
  label: 'Claude Desktop',
  launchVariables: 'literal',
  predefined: [],
};

export const convertClaudeDesktop = mcpServersConverter(CLAUDE_DESKTOP);
