import { parseCommandLine } from '../../../protocol/argv';
import type { ParamsOf } from '../../../protocol/methods';
import {
  MAX_HEADERS,
  headerNameProblem,
  headerValueProblem,
  originOf,
  remoteUrlProblem,
} from '../../../protocol/remote-url';

/**
 * The popup's "Add server" form (issues 5 and 11): one field that takes either a remote server's
 * `http(s)://` URL or a command line. A command line is split by the quote-aware argv parser (not
 * a shell: nothing expands), with `KEY=VALUE` lines for the environment and an optional working
 * folder; a URL comes with `Name: value` header lines and a transport. Pure: it turns the fields
 * into `servers/add` params or says what to fix, with the host's own URL and header rules
 * (protocol/remote-url.ts). The host validates again and is the only writer of config.json.
 */

/** The transport select: `auto` sends no `transport` (the host tries Streamable HTTP, then SSE). */
export const TRANSPORT_CHOICES = ['auto', 'http', 'sse'] as const;
export type TransportChoice = (typeof TRANSPORT_CHOICES)[number];

/** A select's value as a TransportChoice; anything unknown is `auto` (send none). */
export function transportChoice(value: string): TransportChoice {
  return TRANSPORT_CHOICES.find((choice) => choice === value) ?? 'auto';
}

export interface AddServerFields {
  readonly name: string;
  /** A remote server's URL, or the command line of a local one (see targetKind). */
  readonly target: string;
  /** Local only. One `KEY=VALUE` per line; blank lines and `#` comments are skipped. */
  readonly env: string;
  /** Local only. */
  readonly cwd: string;
  /** Remote only. One `Name: value` (or `Name=value`) per line; see parseHeaderLines. */
  readonly headers: string;
  /** Remote only. */
  readonly transport: TransportChoice;
}

export const EMPTY_ADD_SERVER_FIELDS: AddServerFields = {
  name: '',
  target: '',
  env: '',
  cwd: '',
  headers: '',
  transport: 'auto',
};

export type AddServerParams = ParamsOf<'servers/add'>;

export type FieldErrors = Partial<Record<keyof AddServerFields, string>>;

export type AddServerFormResult =
  | { readonly ok: true; readonly params: AddServerParams }
  | { readonly ok: false; readonly errors: FieldErrors };

export type HeaderParseResult =
  | { readonly ok: true; readonly headers: [string, string][] }
  | { readonly ok: false; readonly error: string };

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

/**
 * Whether the target field holds a remote server's URL or a local command line: a URL is what
 * parses (trimmed) as an absolute `http:` or `https:` URL. Anything else is a command line, so a
 * program path such as `C:\tools\server.exe` stays a command. Whether the URL may be used is
 * the separate question remoteUrlProblem answers.
 */
export function targetKind(target: string): 'remote' | 'local' {
  const text = target.trim();
  if (!/^https?:/i.test(text)) return 'local';
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? 'remote' : 'local';
  } catch {
    return 'local';
  }
}

/** The origin a remote target would send data to, for the line under the field. */
export function remoteOrigin(target: string): string | null {
  return targetKind(target) === 'remote' ? originOf(target.trim()) : null;
}

/**
 * Splits the headers field: one `Name: value` per line, as a request writes it and as users paste
 * `Authorization: Bearer …`; `Name=value`, as `switchyard add --header` takes it, works too.
 * Neither `:` nor `=` can be in a header name (an RFC 9110 token), so the first of them always
 * ends the name. The value loses its surrounding spaces and tabs, as HTTP strips them anyway;
 * `${VAR}` stays unexpanded, for the host. Errors name the line and never quote a value: it may
 * be a secret.
 */
export function parseHeaderLines(text: string): HeaderParseResult {
  const headers: [string, string][] = [];
  const seen = new Set<string>();
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) continue;
    const separator = raw.search(/[:=]/);
    if (separator === -1) {
      return {
        ok: false,
        error: `Line ${line} has no ':': write Name: value, one per line (e.g. Authorization: Bearer \${API_TOKEN}).`,
      };
    }
    const name = raw.slice(0, separator).trim();
    const value = raw.slice(separator + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    if (name === '__proto__') return { ok: false, error: `Line ${line}: "__proto__" is reserved.` };
    const nameProblem = headerNameProblem(name);
    if (nameProblem !== undefined) return { ok: false, error: `Line ${line}: ${nameProblem}.` };
    const valueProblem = headerValueProblem(value);
    if (valueProblem !== undefined) return { ok: false, error: `Line ${line}: ${valueProblem}.` };
    const folded = name.toLowerCase();
    if (seen.has(folded)) {
      return {
        ok: false,
        error: `Line ${line} sets ${name} a second time (header names ignore case).`,
      };
    }
    seen.add(folded);
    headers.push([name, value]);
  }
  if (headers.length > MAX_HEADERS) {
    return { ok: false, error: `At most ${MAX_HEADERS} headers are supported.` };
  }
  return { ok: true, headers };
}

/** remoteUrlProblem's clause ("url must use https://…") as a sentence for the form. */
function urlSentence(problem: string): string {
  return `${problem.replace(/^url\b/, 'The URL')}.`;
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

/**
 * The fields as `servers/add` params, or an error per field. Only the fields of the target's kind
 * are read: env and cwd are ignored for a URL, headers and transport for a command line.
 */
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
  return targetKind(fields.target) === 'remote'
    ? remoteParams(name, fields, errors)
    : localParams(name, fields, errors);
}

function remoteParams(
  name: string,
  fields: AddServerFields,
  errors: FieldErrors,
): AddServerFormResult {
  // Sent as typed (trimmed), not as the URL API re-spells it: what is added is what was read.
  const url = fields.target.trim();
  const urlProblem = remoteUrlProblem(url);
  if (urlProblem !== undefined) errors.target = urlSentence(urlProblem);
  const headers = parseHeaderLines(fields.headers);
  if (!headers.ok) errors.headers = headers.error;
  if (Object.keys(errors).length > 0 || !headers.ok) return { ok: false, errors };
  return {
    ok: true,
    params: {
      name,
      url,
      ...(fields.transport === 'auto' ? {} : { transport: fields.transport }),
      ...(headers.headers.length > 0 ? { headers: Object.fromEntries(headers.headers) } : {}),
    },
  };
}

function localParams(
  name: string,
  fields: AddServerFields,
  errors: FieldErrors,
): AddServerFormResult {
  let argv: string[] = [];
  const parsed = parseCommandLine(fields.target);
  if (!parsed.ok) errors.target = parsed.error;
  else if (parsed.argv.length === 0 || parsed.argv[0] === '') {
    errors.target =
      "Enter the program to run and its arguments (e.g. npx -y some-server), or a remote server's https:// URL.";
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
