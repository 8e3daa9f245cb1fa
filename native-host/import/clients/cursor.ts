import { ResultBuilder } from '../result-builder';
import type { Dialect } from '../variables';
import { parseJsonDocument } from '../parse-document';
import { convertServerMap, rootObject, serverMap } from '../server-map';
import type { ConvertContext, ConvertResult } from '../types';

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

export function convertCursor(text: string, file: string, context: ConvertContext): ConvertResult {
  const root = rootObject(parseJsonDocument(text, file), file);
  const builder = new ResultBuilder(CURSOR);
  convertServerMap(serverMap(root, 'mcpServers', file), CURSOR, context, (name, outcome) => {
    builder.add(name, outcome);
  });
  return builder.result();
}
