import os from 'node:os';
import path from 'node:path';
import type { JsonPath } from './json-format';
import { shownText } from './located-warning';
import { MAX_ARG_CHARS, MAX_COMMAND_CHARS, MAX_CWD_CHARS, MAX_ENV_VALUE_CHARS } from './schema';
import { isFullyAbsolute, normalizeFolder } from './workspace-folder';
import type { EntryProblem, WorkspaceServer } from './workspace-types';

/**
 * Variables in workspace entries (https://code.visualstudio.com/docs/reference/variables-reference):
 * the five predefined ones are substituted in command, args, cwd and env values; anything that
 * needs VS Code (prompts, commands, settings) skips the entry, and a cwd must stay in the root.
 */

/** What substitution in one workspace's entries needs. */
export interface VariableContext {
  readonly root: string;
  readonly variables: ReadonlyMap<string, string | undefined>;
}

/** Substitutes variables in the launch fields, checks lengths again and makes cwd absolute. */
export function substituteEntry(
  server: WorkspaceServer,
  { root, variables }: VariableContext,
): WorkspaceServer | { problem: EntryProblem } {
  const launch = (text: string, at: JsonPath, max: number): string | EntryProblem => {
    const result = substitute(text, variables, false);
    if (typeof result !== 'string')
      return { kind: 'unsupported-feature', at, detail: result.detail };
    if (result.length > max) {
      return {
        kind: 'invalid-entry',
        at,
        detail: `with variables substituted, this is longer than ${max} characters`,
      };
    }
    return result;
  };
  const command =
    server.command === undefined
      ? undefined
      : launch(server.command, ['command'], MAX_COMMAND_CHARS);
  if (typeof command === 'object') return { problem: command };
  const args: string[] = [];
  for (const [index, arg] of (server.args ?? []).entries()) {
    const result = launch(arg, ['args', index], MAX_ARG_CHARS);
    if (typeof result === 'object') return { problem: result };
    args.push(result);
  }
  const env: [string, string][] = [];
  for (const [key, raw] of Object.entries(server.env ?? {})) {
    const result = substitute(raw, variables, true);
    if (typeof result !== 'string')
      return { problem: { kind: 'unsupported-feature', at: ['env', key], detail: result.detail } };
    if (result.length > MAX_ENV_VALUE_CHARS) {
      return {
        problem: {
          kind: 'invalid-entry',
          at: ['env', key],
          detail: `with variables substituted, this is longer than ${MAX_ENV_VALUE_CHARS} characters`,
        },
      };
    }
    env.push([key, result]);
  }
  let cwd: string | undefined;
  if (server.cwd !== undefined) {
    const result = launch(server.cwd, ['cwd'], MAX_CWD_CHARS);
    if (typeof result === 'object') return { problem: result };
    cwd = path.resolve(root, result);
    // A relative cwd reads as "in this repository" on a consent card; `..` must not break out.
    const anchored = !path.isAbsolute(result) || server.cwd.startsWith('${workspaceFolder}');
    const inside = path.relative(root, cwd);
    const escapes =
      inside === '..' || inside.startsWith(`..${path.sep}`) || path.isAbsolute(inside);
    if (anchored && escapes) {
      return {
        problem: {
          kind: 'invalid-entry',
          at: ['cwd'],
          detail: `cwd resolves to ${shownText(cwd)}, outside the workspace folder; keep it inside`,
        },
      };
    }
  }
  return {
    ...server,
    ...(command === undefined ? {} : { command }),
    ...(server.args === undefined ? {} : { args }),
    ...(server.env === undefined ? {} : { env: Object.fromEntries(env) }),
    ...(cwd === undefined ? {} : { cwd }),
  };
}

/** The variables substituted everywhere: `${userHome}` is undefined when the home folder is
 * unknown or not absolute, which skips an entry that uses it. */
export function predefinedVariables(
  root: string,
  homedir: string | undefined,
): Map<string, string | undefined> {
  let home = homedir;
  if (home === undefined) {
    try {
      home = os.homedir();
    } catch {
      home = undefined; // `${userHome}` then skips the entry that uses it
    }
  }
  return new Map<string, string | undefined>([
    ['workspaceFolder', root],
    ['workspaceFolderBasename', path.basename(root)],
    ['userHome', home !== undefined && isFullyAbsolute(home) ? normalizeFolder(home) : undefined],
    ['pathSeparator', path.sep],
    ['/', path.sep],
  ]);
}

// In env values `$${` is env.ts's escape for a literal `${`, so it is matched first and kept.
const LAUNCH_VARIABLE = /\$\{([^}]*)\}/g;
const ENV_VARIABLE = /\$\$\{|\$\{([^}]*)\}/g;
/** VS Code features that need VS Code: prompting, running a command, reading its settings. */
const VSCODE_ONLY = /^(input|command|config):/;

/**
 * Replaces the predefined variables in one pass (a substituted path is never scanned again).
 * In command, args and cwd any other variable is a problem: nothing would expand it later. In
 * env values others are kept for env.ts, and a substituted value may not contain `$`, which
 * env.ts could read as part of a reference.
 */
function substitute(
  text: string,
  variables: ReadonlyMap<string, string | undefined>,
  inEnv: boolean,
): string | { detail: string } {
  let problem: string | undefined;
  const result = text.replace(
    inEnv ? ENV_VARIABLE : LAUNCH_VARIABLE,
    (match, name: string | undefined) => {
      if (name === undefined || problem !== undefined) return match;
      const known = variables.has(name);
      const value = variables.get(name);
      if (value !== undefined && !(inEnv && value.includes('$'))) return value;
      if (VSCODE_ONLY.test(name)) {
        problem = name.startsWith('input:')
          ? `prompted inputs (${shownVariable(name)}) are not supported; copy this server into your config.json and put the value in "env" as a \${VAR} reference`
          : `${shownVariable(name)} needs VS Code and is not supported; copy this server into your config.json with the value written out`;
      } else if (known) {
        problem = `${shownVariable(name)} cannot be used here: ${value === undefined ? 'the home folder is unknown' : "its value contains '$'"}`;
      } else if (!inEnv) {
        problem = `${shownVariable(name)} is not supported in command, args or cwd (only \${workspaceFolder}, \${workspaceFolderBasename}, \${userHome}, \${pathSeparator} and \${/} are); move environment variables into "env"`;
      }
      return match;
    },
  );
  return problem === undefined ? result : { detail: problem };
}

function shownVariable(name: string): string {
  return /^[\w:./-]{1,60}$/.test(name) ? `\${${name}}` : 'a ${...} variable';
}
