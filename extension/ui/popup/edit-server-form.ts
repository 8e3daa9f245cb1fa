import { formatCommandLine, parseCommandLine } from '../../../protocol/argv';
import type { ParamsOf } from '../../../protocol/methods';
import type { ServerSummary } from '../../../protocol/servers';
import { parseEnvLines } from './add-server-form';

/**
 * The popup's Edit of a local server (issue 14): its command line, environment and folder, sent
 * as `servers/update`. Env values are secrets the popup is never sent (servers/list carries only
 * the names): each variable the entry sets is listed by name with its value kept unless the user
 * types a new one or removes it, and new ones are added as `KEY=VALUE` lines as in the add form.
 * The host checks everything again, writes config.json and holds a changed launch for approval.
 * Pure.
 */

/** A variable the entry already sets: its value stays unless replaced. */
export interface WrittenVariable {
  readonly key: string;
  /** A new value; empty keeps the one written (which the popup never sees). */
  readonly replacement: string;
  readonly removed: boolean;
}

export interface EditServerFields {
  readonly commandLine: string;
  readonly written: readonly WrittenVariable[];
  /** New variables, one `KEY=VALUE` per line. */
  readonly added: string;
  readonly cwd: string;
}

export type EditServerParams = ParamsOf<'servers/update'>;

export type EditFieldErrors = Partial<Record<'commandLine' | 'added' | 'cwd', string>>;

export type EditServerResult =
  | { readonly ok: true; readonly params: EditServerParams }
  | { readonly ok: false; readonly errors: EditFieldErrors };

/** The form as it opens: what the server runs now, its variables by name, values kept. */
export function editFields(server: ServerSummary): EditServerFields {
  return {
    commandLine: formatCommandLine([server.command, ...server.args]),
    written: server.envKeys.map((key) => ({ key, replacement: '', removed: false })),
    added: '',
    cwd: server.cwd ?? '',
  };
}

/** The fields as `servers/update` params for `server`, or an error per field. */
export function parseEditServerForm(server: string, fields: EditServerFields): EditServerResult {
  const errors: EditFieldErrors = {};
  const parsed = parseCommandLine(fields.commandLine);
  let argv: string[] = [];
  if (!parsed.ok) errors.commandLine = parsed.error;
  else if (parsed.argv.length === 0 || parsed.argv[0] === '') {
    errors.commandLine = 'Enter the program to run and its arguments (e.g. npx -y some-server).';
  } else argv = parsed.argv;

  const env: Record<string, string | null> = {};
  for (const variable of fields.written) {
    if (variable.removed) continue;
    if (variable.replacement.includes('\u0000')) {
      errors.added = `The new value of ${variable.key} contains a NUL character; remove it.`;
    }
    env[variable.key] = variable.replacement === '' ? null : variable.replacement;
  }
  const added = parseEnvLines(fields.added);
  if (!added.ok) errors.added = added.error;
  else {
    for (const [key, value] of added.env) {
      if (Object.hasOwn(env, key)) {
        errors.added = `${key} is already set above: type its new value there.`;
        break;
      }
      env[key] = value;
    }
  }

  const cwd = fields.cwd.trim();
  if (cwd.includes('\u0000')) errors.cwd = 'The folder contains a NUL character; remove it.';

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const [command = '', ...args] = argv;
  return { ok: true, params: { server, command, args, env, cwd: cwd === '' ? null : cwd } };
}
