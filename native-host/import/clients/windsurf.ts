import { ResultBuilder } from '../result-builder';
import type { Dialect } from '../variables';
import { parseJsonDocument } from '../parse-document';
import { convertServerMap, rootObject, serverMap } from '../server-map';
import type { ConvertContext, ConvertResult } from '../types';

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

export function convertWindsurf(
  text: string,
  file: string,
  context: ConvertContext,
): ConvertResult {
  const root = rootObject(parseJsonDocument(text, file), file);
  const builder = new ResultBuilder(WINDSURF);
  convertServerMap(serverMap(root, 'mcpServers', file), WINDSURF, context, (name, outcome) => {
    builder.add(name, outcome);
  });
  return builder.result();
}
