import { z } from 'zod';
import { ResultBuilder } from '../result-builder';
import { isRecord } from '../../../protocol/guards';
import type { Dialect } from '../variables';
import { parseJsonDocument } from '../parse-document';
import { convertServerMap, rootObject, serverMap } from '../server-map';
import type { ConvertContext, ConvertResult } from '../types';

/**
 * VS Code, `mcp.json` in the user settings folder: `servers` (`type` "stdio", "http" or "sse";
 * `command`, `args`, `env`, `envFile`, `cwd`) and `inputs`, values VS Code prompts for and
 * entries refer to as `${input:<id>}`. Those cannot be converted: Switchyard never prompts for a
 * value; the preview names the input. Older VS Code kept the same object under `"mcp"` in
 * `settings.json`, which is read too.
 */
const VSCODE_BASE = {
  label: 'VS Code',
  launchVariables: 'expands',
  envReferences: 'prefixed',
  predefined: ['userHome', 'pathSeparator', '/'],
} as const satisfies Dialect;

const InputSchema = z.object({ id: z.string(), description: z.string().optional() });

export function convertVsCode(text: string, file: string, context: ConvertContext): ConvertResult {
  const top = rootObject(parseJsonDocument(text, file), file);
  const nested = top['servers'] === undefined && isRecord(top['mcp']) ? top['mcp'] : undefined;
  const root = nested ?? top;
  const prefix = nested === undefined ? '' : 'mcp.';
  const inputs = new Map<string, string>();
  if (Array.isArray(root['inputs'])) {
    for (const raw of root['inputs']) {
      const input = InputSchema.safeParse(raw);
      if (input.success) inputs.set(input.data.id, input.data.description ?? input.data.id);
    }
  }
  const dialect: Dialect = { ...VSCODE_BASE, inputs };
  const builder = new ResultBuilder(dialect);
  const servers = serverMap(root, 'servers', file, `${prefix}servers`);
  convertServerMap(servers, dialect, context, (name, outcome) => {
    builder.add(name, outcome);
  });
  return builder.result();
}
