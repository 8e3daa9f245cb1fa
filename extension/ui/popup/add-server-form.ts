import { parseCommandLine } from '../../../protocol/argv';

/**
 * The popup's "Add server" form (issue 5): one command-line field split by the quote-aware argv
 * parser (not a shell: nothing expands), `KEY=VALUE` lines for the environment, an optional
 * working folder. Pure: it turns the fields into `servers/add` params or says what to fix. The
 * host validates again and is the only writer of config.json.
 */

export interface AddServerFields {
  readonly name: string;
  readonly commandLine: string;
  /** One `KEY=VALUE` per line; blank lines and `#` comments are skipped. */
  readonly env: string;
  readonly cwd: string;
}

export const EMPTY_ADD_SERVER_FIELDS: AddServerFields = {
  name: '',
  commandLine: '',
  env: '',
  cwd: '',
};

export interface AddServerParams {
  readonly name: string;
  readonly command: string;
  readonly args: string[];
  readonly env?: Record<string, string>;
  readonly cwd?: string;
}

export type FieldErrors = Partial<Record<keyof AddServerFields, string>>;

export type AddServerFormResult =
  | { readonly ok: true; readonly params: AddServerParams }
  | { readonly ok: false; readonly errors: FieldErrors };

export type EnvParseResult =
  | { readonly ok: true; readonly env: [string, string][] }
  | { readonly ok: false; readonly error: string };

// Control and invisible characters would make two names look alike on a consent card.
const INVISIBLE = /[\p{C}\p{Zl}\p{Zp}]/u;

/**
 * Splits the environment field. Values are kept exactly as typed (`${VAR}` stays unexpanded, for
 * the host to expand from its own environment); only the key is trimmed.
 */
export function parseEnvLines(text: string): EnvParseResult {
  const env: [string, string][] = [];
  const seen = new Set<string>();
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) continue;
    const eq = raw.indexOf('=');
    if (eq === -1) {
      return { ok: false, error: `Line ${line} has no '=': write KEY=VALUE, one per line.` };
    }
    const key = raw.slice(0, eq).trim();
    const value = raw.slice(eq + 1);
    if (key === '') return { ok: false, error: `Line ${line} has no name before '='.` };
    if (/\s/.test(key) || INVISIBLE.test(key)) {
      return {
        ok: false,
        error: `Line ${line}: the name "${key}" contains spaces or invisible characters.`,
      };
    }
    if (key === '__proto__') return { ok: false, error: `Line ${line}: "__proto__" is reserved.` };
    if (value.includes('\u0000')) {
      return { ok: false, error: `Line ${line}: the value contains a NUL character; remove it.` };
    }
    if (seen.has(key)) return { ok: false, error: `Line ${line} sets ${key} a second time.` };
    seen.add(key);
    env.push([key, value]);
  }
  return { ok: true, env };
}

/** Names the host would refuse, checked early so the user sees it next to the field. */
export function serverNameError(name: string): string | undefined {
  if (name.length === 0) return 'Give the server a name.';
  if (name.trim() !== name) return 'The name cannot start or end with a space.';
  if (Array.from(name).length > 64) return 'The name can have at most 64 characters.';
  if (INVISIBLE.test(name)) return 'The name cannot contain control or invisible characters.';
  if (name === '__proto__') return '"__proto__" is reserved; choose another name.';
  return undefined;
}

/** The argv the command field splits into, or the parser's error (for the chips preview). */
export function previewArgv(
  commandLine: string,
): { ok: true; argv: string[] } | { ok: false; error: string } {
  const parsed = parseCommandLine(commandLine);
  return parsed.ok ? { ok: true, argv: parsed.argv } : { ok: false, error: parsed.error };
}

/** The fields as `servers/add` params, or an error per field. */
export function parseAddServerForm(
  fields: AddServerFields,
  existingNames: readonly string[] = [],
): AddServerFormResult {
  const errors: FieldErrors = {};
  const name = fields.name;
  const nameError = serverNameError(name);
  if (nameError !== undefined) errors.name = nameError;
  else if (existingNames.includes(name)) {
    errors.name = `A server named "${name}" already exists; choose another name.`;
  }

  let argv: string[] = [];
  const parsed = parseCommandLine(fields.commandLine);
  if (!parsed.ok) errors.commandLine = parsed.error;
  else if (parsed.argv.length === 0 || parsed.argv[0] === '') {
    errors.commandLine = 'Enter the program to run and its arguments, e.g. npx -y some-server.';
  } else argv = parsed.argv;

  const env = parseEnvLines(fields.env);
  if (!env.ok) errors.env = env.error;

  const cwd = fields.cwd.trim();
  if (cwd.includes('\u0000')) errors.cwd = 'The folder contains a NUL character; remove it.';

  if (Object.keys(errors).length > 0 || !env.ok) return { ok: false, errors };
  const [command = '', ...args] = argv;
  return {
    ok: true,
    params: {
      name,
      command,
      args,
      ...(env.env.length > 0 ? { env: Object.fromEntries(env.env) } : {}),
      ...(cwd !== '' ? { cwd } : {}),
    },
  };
}
