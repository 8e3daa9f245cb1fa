/**
 * The environment a server process gets (design.md D5): a short allow-list inherited from the
 * host plus the entry's own `env`, with `${VAR}` references expanded from the host's environment
 * (and, through config/variables.ts, the secret store).
 * The browser hands the host its whole environment (API keys, cloud credentials, NODE_OPTIONS);
 * none of that reaches a server unless its entry names it. Nothing here logs a value.
 */

/** An environment as Node exposes it (`process.env`) or as a test writes it. */
export type EnvSource = Readonly<Record<string, string | undefined>>;

/** Variables inherited on every platform: what a CLI needs to find programs, a home directory,
 * a locale and a temp folder. `LC_*` is matched as a prefix. */
const INHERITED_EVERYWHERE = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'TERM',
  'TMPDIR',
  'TMP',
  'TEMP',
  'TZ',
] as const;

/** Extra variables Windows programs fail without (Node itself needs SystemRoot; npx needs
 * APPDATA). `ProgramFiles*` is matched as a prefix to include `ProgramFiles(x86)`. */
const INHERITED_ON_WINDOWS = [
  'SystemRoot',
  'SYSTEMDRIVE',
  'ComSpec',
  'PATHEXT',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'ProgramData',
  'WINDIR',
  'HOMEDRIVE',
  'HOMEPATH',
] as const;

/** Windows treats `Path` and `PATH` as one variable; every other platform keeps them apart. */
function foldCase(name: string, platform: NodeJS.Platform): string {
  return platform === 'win32' ? name.toUpperCase() : name;
}

const POSIX_INHERITED: ReadonlySet<string> = new Set(INHERITED_EVERYWHERE);
const WINDOWS_INHERITED: ReadonlySet<string> = new Set(
  [...INHERITED_EVERYWHERE, ...INHERITED_ON_WINDOWS].map((name) => name.toUpperCase()),
);

/** Whether the host passes `name` through to a child on `platform` (case-insensitive on Windows). */
export function isInheritedVar(name: string, platform: NodeJS.Platform): boolean {
  if (platform !== 'win32') return POSIX_INHERITED.has(name) || name.startsWith('LC_');
  const folded = name.toUpperCase();
  return (
    WINDOWS_INHERITED.has(folded) || folded.startsWith('LC_') || folded.startsWith('PROGRAMFILES')
  );
}

/**
 * Looks up `name` in `env`, ignoring case on Windows (where a plain object from a test or a
 * merged config does not do it for us, unlike `process.env`). On Windows an exact match wins
 * over a case-insensitive one.
 */
export function getEnvVar(
  env: EnvSource,
  name: string,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  if (Object.hasOwn(env, name)) return env[name];
  if (platform !== 'win32') return undefined;
  const folded = name.toUpperCase();
  for (const [key, value] of Object.entries(env)) {
    if (key.toUpperCase() === folded && value !== undefined) return value;
  }
  return undefined;
}

/**
 * Where `${VAR}` values come from: the value of `name`, or undefined when it is not set. The
 * host's environment alone (`envLookup`), or the environment and then the secret store
 * (`resolveVariables` in config/variables.ts).
 */
export type VariableLookup = (name: string) => string | undefined;

/** A lookup in `env` (case-insensitive on Windows). */
export function envLookup(
  env: EnvSource,
  platform: NodeJS.Platform = process.platform,
): VariableLookup {
  return (name) => getEnvVar(env, name, platform);
}

export interface ExpandedValue {
  /** The value with every reference replaced. */
  readonly value: string;
  /** Names referenced without a default that are unset, in first-seen order, without repeats.
   * They expanded to the empty string. */
  readonly missing: string[];
}

// `${NAME}`, `${env:NAME}` (VS Code's spelling) and `${NAME:-default}` (Claude Code's); `$${`
// is an escaped literal `${`. A bare `$NAME` is not a reference: secrets and regexes with a `$`
// pass through untouched. Names are POSIX names and references do not nest: in `${A${B}}` only
// `${B}` is one. A default is literal text up to the first `}`.
const REFERENCE = /\$\$\{|\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** One `${VAR}` a value refers to. */
export interface VariableReference {
  readonly name: string;
  /** Whether every reference to it has a default (`${NAME:-text}`), so it may stay unset. */
  readonly optional: boolean;
}

/**
 * The variables `values` refer to, in first-seen order without repeats (`$${` escapes are not
 * references). A name is optional only if no reference to it lacks a default.
 */
export function referencedVariables(values: Iterable<string>): VariableReference[] {
  const found = new Map<string, boolean>();
  for (const value of values) {
    for (const match of value.matchAll(REFERENCE)) {
      const name = match[1];
      if (name === undefined) continue;
      const optional = match[2] !== undefined;
      found.set(name, (found.get(name) ?? true) && optional);
    }
  }
  return [...found].map(([name, optional]) => ({ name, optional }));
}

/**
 * Expands references in one `env` value in a single pass: an expanded value is never expanded
 * again, so a variable's content cannot inject a reference. `source` is the host's environment
 * (looked up case-insensitively on Windows) or any VariableLookup.
 *
 * - `${NAME}` and `${env:NAME}`: the variable, or "" (and NAME listed in `missing`) when unset.
 * - `${NAME:-text}`: the variable if set and non-empty, else `text` literally (not missing).
 * - `$${` is a literal `${`; any other `$` (`$HOME`, `$$`, `${1}`, an unclosed `${`) is kept as is.
 */
export function expandEnvValue(
  value: string,
  source: EnvSource | VariableLookup,
  platform: NodeJS.Platform = process.platform,
): ExpandedValue {
  const lookup = typeof source === 'function' ? source : envLookup(source, platform);
  const missing: string[] = [];
  const expanded = value.replace(
    REFERENCE,
    (_match: string, name: string | undefined, fallback: string | undefined) => {
      if (name === undefined) return '${'; // the `$${` escape
      const found = lookup(name);
      if (fallback !== undefined) return found === undefined || found === '' ? fallback : found;
      if (found !== undefined) return found;
      if (!missing.includes(name)) missing.push(name);
      return '';
    },
  );
  return { value: expanded, missing };
}

export interface ChildEnv {
  /** The complete environment to hand to spawn: nothing else is inherited. */
  readonly env: Record<string, string>;
  /** Variables the entry's `env` referenced that the host does not have (names only). */
  readonly missing: string[];
}

/**
 * The environment for a server process: the allow-listed variables of `hostEnv` (see
 * INHERITED_EVERYWHERE and, on Windows, INHERITED_ON_WINDOWS), overlaid with `entryEnv` after
 * `${VAR}` expansion through `lookup` (by default the full `hostEnv`; the launcher passes the
 * environment-then-secret-store lookup of config/variables.ts). Anything else in the host's environment reaches
 * the child only if the entry sets it, e.g. `"GITHUB_TOKEN": "${GITHUB_TOKEN}"`.
 *
 * On Windows names are case-insensitive: the result holds at most one spelling of each name
 * (an entry's `PATH` replaces an inherited `Path`), because a child given both sees either.
 */
export function buildChildEnv(
  entryEnv: Readonly<Record<string, string>>,
  hostEnv: EnvSource = process.env,
  platform: NodeJS.Platform = process.platform,
  lookup: VariableLookup = envLookup(hostEnv, platform),
): ChildEnv {
  // Keyed by the folded name so Windows spellings collapse; the value keeps the real spelling.
  const result = new Map<string, [name: string, value: string]>();
  for (const [name, value] of Object.entries(hostEnv)) {
    const folded = foldCase(name, platform);
    if (value === undefined || result.has(folded) || !isInheritedVar(name, platform)) continue;
    result.set(folded, [name, value]);
  }
  const missing: string[] = [];
  for (const [name, raw] of Object.entries(entryEnv)) {
    const expanded = expandEnvValue(raw, lookup);
    for (const m of expanded.missing) if (!missing.includes(m)) missing.push(m);
    const folded = foldCase(name, platform);
    result.delete(folded); // re-insert so the entry's spelling and position win
    result.set(folded, [name, expanded.value]);
  }
  return { env: Object.fromEntries(result.values()), missing };
}
