import { mcpServersConverter } from '../server-map';
import type { Dialect } from '../variables';

/**
 * Claude Desktop, `claude_desktop_config.json`: `{"mcpServers": {"<name>": {"command", "args",
 * "env"}}}`. It runs stdio servers only and expands no variables.
 */
export const CLAUDE_DESKTOP: Dialect = {
  label: 'Claude Desktop',
  launchVariables: 'literal',
  predefined: [],
};

export const convertClaudeDesktop = mcpServersConverter(CLAUDE_DESKTOP);
