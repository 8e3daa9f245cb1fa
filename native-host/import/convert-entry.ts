import path from 'node:path';
import { z } from 'zod';
import { formatJsonPath } from '../config/json-format';
import { ServerEntrySchema } from '../config/schema';
import { loadsCode } from '../host/launch-gate';
import { shownKey, shownValue } from './text';
import type { ConvertContext, ImportedEntry, ImportedLocalEntry } from './types';
import { predefinedValues, substitute, type Dialect } from './variables';

/**
 * The part of every converter that does not depend on the client, for a local (stdio) server:
 * handling `${...}` variables the way the client would, and checking the result with the schema
 * config.json is loaded with, so an imported entry always loads. Remote servers: convert-remote.ts.
 */

/** The launch fields of one entry, as the client wrote them (not yet checked). */
export interface StdioFields {
  readonly command: unknown;
  readonly args?: unknown;
  readonly env?: unknown;
  readonly cwd?: unknown;
  readonly disabled?: boolean;
  /** An absolute folder the client runs the server in when it sets no cwd (a Claude Code
   * project): used when the entry points at files by relative path. */
  readonly projectDir?: string;
  /** Notes the client's converter already has (keys it dropped). */
  readonly notes?: readonly string[];
}

/** An entry that cannot be converted, and why. */
export interface EntryFailure {
  readonly ok: false;
  readonly reason: string;
}

export type EntryOutcome<E extends ImportedEntry = ImportedEntry> =
  { readonly ok: true; readonly entry: E; readonly notes: readonly string[] } | EntryFailure;

export const cannot = (reason: string): EntryFailure => ({
  ok: false,
  reason: `cannot convert: ${reason}`,
});

/** Notes for keys the entry sets that Switchyard does not import (`known` are handled). */
export function droppedKeyNotes(
  raw: Readonly<Record<string, unknown>>,
  known: readonly string[],
): string[] {
  const dropped = Object.keys(raw).filter((key) => !known.includes(key));
  const notes: string[] = [];
  const timeouts = dropped.filter((key) => /timeout/i.test(key));
  if (timeouts.length > 0) {
    notes.push(
      `not imported: ${timeouts.map(shownKey).join(', ')} (set "timeout" or "toolTimeout" in config.json if the server needs more time)`,
    );
  }
  const permissions = dropped.filter((key) => /allow|approv|tools|trust|permission/i.test(key));
  if (permissions.length > 0) {
    notes.push(
      `not imported: ${permissions.map(shownKey).join(', ')} (which tools run without asking is decided by your Switchyard tool policy)`,
    );
  }
  return notes;
}

const StringArraySchema = z.array(z.string());

/**
 * Converts one stdio entry: variables handled per `dialect`, a leading `~/` in command or cwd
 * made absolute, a relative cwd refused (or anchored at `projectDir`), then checked with
 * ServerEntrySchema. Env values are kept as written apart from predefined variables.
 */
export function convertStdio(
  fields: StdioFields,
  dialect: Dialect,
  context: ConvertContext,
): EntryOutcome<ImportedLocalEntry> {
  const paths = context.platform === 'win32' ? path.win32 : path.posix;
  const notes = [...(fields.notes ?? [])];
  if (fields.command === undefined) {
    return cannot('the entry has no "command" (and no address): there is nothing to run');
  }
  if (typeof fields.command !== 'string') return cannot('"command" must be a string');

  const variables = predefinedValues(dialect, context);
  const launch = (text: string, where: string): string | EntryFailure => {
    if (dialect.launchVariables === 'literal') return text;
    const result = substitute(text, where, 'launch', variables, dialect);
    return typeof result === 'string' ? result : cannot(result.problem);
  };

  let command = launch(fields.command, '"command"');
  if (typeof command !== 'string') return command;
  if (/^~[\\/]/.test(command)) {
    command = paths.join(context.homedir, command.slice(2));
    notes.push(`"~" in the command was written out as ${context.homedir}`);
  }

  const args: string[] = [];
  if (fields.args !== undefined && fields.args !== null) {
    const parsed = StringArraySchema.safeParse(fields.args);
    if (!parsed.success) return cannot('"args" must be a list of strings');
    for (const [index, arg] of parsed.data.entries()) {
      const value = launch(arg, `argument ${index + 1}`);
      if (typeof value !== 'string') return value;
      args.push(value);
    }
  }

  const converted = convertEnv(fields.env, variables, dialect, notes);
  if (!converted.ok) return converted.outcome;
  const env = converted.env;
  // The launch card warns about these (design D6); an imported server is approved without one,
  // so the preview says it, with the value (flags or paths; other values are never shown).
  for (const [key, value] of Object.entries(env)) {
    if (loadsCode(key)) {
      notes.push(
        `env ${shownKey(key)} is ${shownValue(value)}: it changes what the program loads and runs, and an imported server starts without asking`,
      );
    }
  }

  let cwd: string | undefined;
  if (fields.cwd !== undefined && fields.cwd !== null && fields.cwd !== '') {
    if (typeof fields.cwd !== 'string') return cannot('"cwd" must be a string');
    let value = launch(fields.cwd, '"cwd"');
    if (typeof value !== 'string') return value;
    if (/^~[\\/]/.test(value)) value = paths.join(context.homedir, value.slice(2));
    if (!isAbsoluteFor(value, context.platform)) {
      if (fields.projectDir === undefined) {
        return cannot(
          `"cwd" is the relative folder ${shownValue(value)}; Switchyard needs an absolute folder. Write it out in full in the client and import again`,
        );
      }
      value = paths.resolve(fields.projectDir, value);
    }
    cwd = value;
  } else if (fields.projectDir !== undefined && usesRelativePaths(command, args)) {
    cwd = fields.projectDir;
    notes.push(`runs in ${fields.projectDir}, where its relative paths point`);
  }

  const checked = ServerEntrySchema.safeParse({
    command,
    args,
    env,
    ...(cwd === undefined ? {} : { cwd }),
  });
  if (!checked.success) return cannot(schemaProblem(checked.error));
  const entry: ImportedLocalEntry = {
    command: checked.data.command,
    args: checked.data.args,
    env: checked.data.env,
    ...(checked.data.cwd === undefined ? {} : { cwd: checked.data.cwd }),
    ...(fields.disabled === true ? { disabled: true } : {}),
  };
  return { ok: true, entry, notes };
}

/** The first issue ServerEntrySchema raised, as the reason an entry cannot be converted. */
export function schemaProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  // The schema's messages name the field; a path adds only which argument, variable or header.
  const where =
    issue === undefined || issue.path.length < 2
      ? ''
      : `${formatJsonPath(issue.path.map(pathSegment))}: `;
  return `${where}${issue?.message ?? 'invalid entry'}`;
}

function pathSegment(segment: PropertyKey): string | number {
  return typeof segment === 'symbol' ? String(segment) : segment;
}

/** Env values: strings kept as written; numbers (VS Code allows them) as their text; null
 * (VS Code: "unset this variable") dropped with a note. */
function convertEnv(
  raw: unknown,
  variables: ReadonlyMap<string, string>,
  dialect: Dialect,
  notes: string[],
): { ok: true; env: Record<string, string> } | { ok: false; outcome: EntryFailure } {
  if (raw === undefined || raw === null) return { ok: true, env: {} };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, outcome: cannot('"env" must be an object of strings') };
  }
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    let text: string;
    if (typeof value === 'string') text = value;
    else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
    else if (value === null) {
      notes.push(
        `env ${shownKey(key)} is unset in the source; Switchyard passes only what an entry sets`,
      );
      continue;
    } else {
      return { ok: false, outcome: cannot(`env ${shownKey(key)} must be a string`) };
    }
    const substituted =
      dialect.launchVariables === 'literal'
        ? text
        : substitute(text, `env ${shownKey(key)}`, 'env', variables, dialect);
    if (typeof substituted !== 'string') {
      return { ok: false, outcome: cannot(substituted.problem) };
    }
    Object.defineProperty(env, key, {
      value: substituted,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { ok: true, env };
}

/** Whether a program or argument looks like a path relative to the folder it runs in. */
function usesRelativePaths(command: string, args: readonly string[]): boolean {
  const relative = /^\.{1,2}[\\/]/;
  const commandRelative =
    relative.test(command) ||
    (/[\\/]/.test(command) && !path.posix.isAbsolute(command) && !/^[A-Za-z]:[\\/]/.test(command));
  return commandRelative || args.some((arg) => relative.test(arg));
}

/** Absolute without depending on a current drive or folder (on Windows `\x` and `C:x` are not). */
export function isAbsoluteFor(value: string, platform: NodeJS.Platform): boolean {
  if (platform !== 'win32') return path.posix.isAbsolute(value);
  return /^[A-Za-z]:[\\/]/.test(value) || /^[\\/]{2}[^\\/]/.test(value);
}
