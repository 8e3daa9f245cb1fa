import { isAbsoluteFor } from '../convert-entry';
import { ResultBuilder } from '../result-builder';
import { shownValue } from '../text';
import { isRecord } from '../../../protocol/guards';
import type { Dialect } from '../variables';
import { parseJsonDocument } from '../parse-document';
import { convertServerMap, rootObject, serverMap } from '../server-map';
import type { ConvertContext, ConvertResult } from '../types';

/**
 * Claude Code: a project's `.mcp.json` (`mcpServers`) and `~/.claude.json`, which holds the user
 * scope (top-level `mcpServers`) and the local scope of each project (`projects["<folder>"]
 * .mcpServers`). Claude Code expands `${VAR}` and `${VAR:-default}` in command, args and env.
 * User-scope servers come first; a project's server named like one already read is skipped when
 * it is the same, reported when it differs. A project server that points at files by relative
 * path gets the project folder as its cwd, where Claude Code would have run it.
 */
export const CLAUDE_CODE: Dialect = {
  label: 'Claude Code',
  launchVariables: 'expands',
  envReferences: 'bare',
  predefined: [],
};

export function convertClaudeCode(
  text: string,
  file: string,
  context: ConvertContext,
): ConvertResult {
  const root = rootObject(parseJsonDocument(text, file), file);
  const builder = new ResultBuilder(CLAUDE_CODE);
  convertServerMap(serverMap(root, 'mcpServers', file), CLAUDE_CODE, context, (name, outcome) => {
    builder.add(name, outcome, 'user scope');
  });
  const projects = root['projects'];
  if (projects === undefined || projects === null) return builder.result();
  if (!isRecord(projects)) {
    builder.problem(undefined, '"projects" is not an object; project servers were not read');
    return builder.result();
  }
  for (const [folder, project] of Object.entries(projects)) {
    if (!isRecord(project)) continue;
    const where = `projects[${JSON.stringify(folder)}].mcpServers`;
    const servers = project['mcpServers'];
    if (servers === undefined || servers === null) continue;
    if (!isRecord(servers)) {
      builder.problem(undefined, `${where} is not an object; that project's servers were not read`);
      continue;
    }
    const projectDir = isAbsoluteFor(folder, context.platform) ? folder : undefined;
    const scope = `project ${shownValue(folder)}`;
    convertServerMap(
      servers,
      CLAUDE_CODE,
      context,
      (name, outcome) => {
        builder.add(name, outcome, scope);
      },
      projectDir,
    );
  }
  return builder.result();
}
