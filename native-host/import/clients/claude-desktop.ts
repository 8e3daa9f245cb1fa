import { ResultBuilder } from '../result-builder';
import type { Dialect } from '../variables';
import { parseJsonDocument } from '../parse-document';
import { convertServerMap, rootObject, serverMap } from '../server-map';
import type { ConvertContext, ConvertResult } from '../types';

/**
 * Claude Desktop, `claude_desktop_config.json`: `{"mcpServers": {"<name>": {"command", "args",
 * "env"}}}`. It runs stdio servers only and expands no variables.
 */
export const CLAUDE_DESKTOP: Dialect = {
  label: 'Claude Desktop',
  launchVariables: 'literal',
  predefined: [],
};

export function convertClaudeDesktop(
  text: string,
  file: string,
  context: ConvertContext,
): ConvertResult {
  const root = rootObject(parseJsonDocument(text, file), file);
  const builder = new ResultBuilder(CLAUDE_DESKTOP);
  convertServerMap(
    serverMap(root, 'mcpServers', file),
    CLAUDE_DESKTOP,
    context,
    (name, outcome) => {
      builder.add(name, outcome);
    },
  );
  return builder.result();
}
