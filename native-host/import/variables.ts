import type { ConvertContext } from './types';
import { shownValue, shownVariable } from './text';

/**
 * `${...}` variables in other clients' files. Switchyard itself expands only `${NAME}`,
 * `${env:NAME}` and `${NAME:-default}` in env values (config/env.ts), at launch. A variable is
 * kept only where Switchyard will read it exactly as the client did, written out where its value
 * is fixed (`${userHome}`), and anything else makes the entry unconvertible: a server given the
 * literal text, or another variable's value, would run differently from what the user had.
 */

/** How a client treats `${...}` in a server's fields. */
export interface Dialect {
  /** The client's name in messages: "Cursor". */
  readonly label: string;
  /**
   * `literal`: the client passes `${...}` through as written (Claude Desktop, Codex, Zed).
   * `expands`: it substitutes variables in command, args and cwd, which Switchyard does not do
   * (it expands only env values), so such an entry cannot be converted unless the variable is one
   * of `predefined`.
   */
  readonly launchVariables: 'literal' | 'expands';
  /**
   * For `expands` clients, how an env value refers to an environment variable: `bare` (Claude
   * Code: `${NAME}`, `${NAME:-default}`) or `prefixed` (VS Code, Cursor, Windsurf:
   * `${env:NAME}`; there a bare `${NAME}` is one of the client's own variables). Only those are
   * kept for Switchyard to expand: another spelling would make it read a different variable.
   */
  readonly envReferences?: 'bare' | 'prefixed';
  /** Variables with a fixed value that are substituted at import time. */
  readonly predefined: readonly PredefinedVariable[];
  /** VS Code's `inputs`: id -> description, to say which prompted value an entry needs. */
  readonly inputs?: ReadonlyMap<string, string>;
}

export type PredefinedVariable = 'userHome' | 'pathSeparator' | '/';

/**
 * Where a value sits, which decides what Switchyard does with `${...}` in it: it expands
 * environment references in `env` values and in a remote server's `header` values (at launch or
 * connect time, config/env.ts), and nothing in `launch` fields (command, args, cwd) or a remote
 * server's `url`.
 */
export type VariablePlace = 'launch' | 'env' | 'url' | 'header';

/** Why a value cannot be converted, ready to follow "cannot convert: ". */
export interface VariableProblem {
  readonly problem: string;
}

export function predefinedValues(dialect: Dialect, context: ConvertContext): Map<string, string> {
  const separator = context.platform === 'win32' ? '\\' : '/';
  const values = new Map<string, string>();
  for (const name of dialect.predefined) {
    values.set(name, name === 'userHome' ? context.homedir : separator);
  }
  return values;
}

const VARIABLE = /\$\{([^}]*)\}/g;
const ENV_VARIABLE = /\$\$\{|\$\{([^}]*)\}/g;
/** Environment references Switchyard's env expansion (config/env.ts) reads the same way. */
const BARE_REFERENCE = /^[A-Za-z_][A-Za-z0-9_]*(?::-.*)?$/s;
const PREFIXED_REFERENCE = /^env:[A-Za-z_][A-Za-z0-9_]*$/;
/** Any spelling of an environment reference, for messages. */
const ANY_REFERENCE = /^(?:env:)?[A-Za-z_][A-Za-z0-9_]*(?::-.*)?$/s;

function isEnvReference(name: string, dialect: Dialect): boolean {
  return (dialect.envReferences === 'bare' ? BARE_REFERENCE : PREFIXED_REFERENCE).test(name);
}

/**
 * Substitutes predefined variables in one value. In command, args, cwd and a url any other
 * variable makes the entry unconvertible (nothing would expand it); in env and header values a
 * reference Switchyard expands itself is kept as written.
 */
export function substitute(
  text: string,
  where: string,
  place: VariablePlace,
  variables: ReadonlyMap<string, string>,
  dialect: Dialect,
): string | VariableProblem {
  const inEnv = place === 'env' || place === 'header';
  let problem: string | undefined;
  const result = text.replace(inEnv ? ENV_VARIABLE : VARIABLE, (match, name?: string) => {
    // `$${` is env.ts's escape for a literal `${`: kept, and what follows is not a variable.
    if (name === undefined || problem !== undefined) return match;
    const value = variables.get(name);
    if (value !== undefined) return value;
    if (inEnv && isEnvReference(name, dialect)) return match;
    problem = variableProblem(name, where, place, dialect);
    return match;
  });
  return problem === undefined ? result : { problem };
}

function variableProblem(
  name: string,
  where: string,
  place: VariablePlace,
  dialect: Dialect,
): string {
  const inEnv = place === 'env' || place === 'header';
  const shown = shownVariable(name);
  // In Claude Code every `${NAME}` is an environment variable, whatever the name.
  const ownVariables = dialect.envReferences !== 'bare';
  if (ownVariables && name.startsWith('input:')) {
    const id = name.slice('input:'.length);
    const description = dialect.inputs?.get(id);
    const what = description === undefined ? '' : ` (${shownValue(description)})`;
    const instead =
      place === 'url'
        ? 'Write the address out in full and import again'
        : place === 'header'
          ? `Put the value in an environment variable and refer to it as \${env:NAME} in the header, then import again, or add the server with 'switchyard add --url' and --header`
          : `Put the value in an environment variable and refer to it as \${NAME} in "env", then import again, or add the server with 'switchyard add'`;
    return `${where} uses ${shown}, a value ${dialect.label} asks you for${what}. ${instead}`;
  }
  if (ownVariables && /^(command|config|file):/.test(name)) {
    return `${where} uses ${shown}, which only ${dialect.label} can work out; write the value out in full and import again`;
  }
  if (
    ownVariables &&
    /^(workspaceFolder|workspaceFolderBasename|workspaceRoot|cwd|file|relativeFile|fileDirname)$/.test(
      name,
    )
  ) {
    return `${where} uses ${shown}, which depends on the folder open in ${dialect.label}; write the folder out in full, or add the server to that folder's workspace config`;
  }
  if (inEnv && dialect.envReferences === 'prefixed' && BARE_REFERENCE.test(name)) {
    return `${where} uses ${shown}, which ${dialect.label} does not read from the environment (that would be \${env:${name.split(':-')[0] ?? name}}); write what you mean in ${dialect.label} and import again`;
  }
  if (place === 'url') {
    return `${where} uses ${shown}, and Switchyard does not expand variables in a remote server's url; write the address out in full and import again`;
  }
  if (!inEnv && ANY_REFERENCE.test(name)) {
    return `${where} uses ${shown}, and Switchyard expands variables only in "env" values; write the value out, or let the server read the variable from its environment`;
  }
  return `${where} uses ${shown}, which Switchyard does not know; write the value out and import again`;
}
