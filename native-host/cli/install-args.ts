import { BROWSERS, isBrowser, type Browser } from '../../installers/browsers';
import { EXTENSION_ID } from '../../installers/manifest';

/**
 * Arguments of `switchyard install` and `switchyard uninstall`, parsed without I/O:
 *
 *   install [--browser NAME]... [--user-data-dir DIR] [--extension-id ID]... [--dry-run] [--json]
 *   uninstall [--browser NAME]... [--user-data-dir DIR] [--extension-id ID]... [--dry-run] [--json]
 *
 * `--flag value` and `--flag=value` are both accepted. Uninstall takes every flag install took, so
 * a script can undo an install with the same arguments: `--user-data-dir` removes only that
 * profile's registrations, and `--extension-id` is accepted but changes nothing (a manifest is
 * removed whichever ids it allows).
 */

export interface InstallArgs {
  readonly browsers: readonly Browser[];
  readonly userDataDir: string | null;
  /** Extra Chromium extension ids (the store's); the development id is always included. */
  readonly extensionIds: readonly string[];
  readonly dryRun: boolean;
  readonly json: boolean;
}

export interface UninstallArgs {
  readonly browsers: readonly Browser[];
  /** Only the registrations of this browser profile folder; null for every registration. */
  readonly userDataDir: string | null;
  readonly dryRun: boolean;
  readonly json: boolean;
}

export type Parsed<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

const VALUE_FLAGS = ['--browser', '--user-data-dir', '--extension-id'] as const;
type ValueFlag = (typeof VALUE_FLAGS)[number];

interface Raw {
  readonly values: ReadonlyMap<ValueFlag, readonly string[]>;
  readonly switches: ReadonlySet<string>;
}

function isValueFlag(value: string): value is ValueFlag {
  return (VALUE_FLAGS as readonly string[]).includes(value);
}

function split(
  args: readonly string[],
  allowedValues: readonly ValueFlag[],
  allowedSwitches: readonly string[],
  command: string,
): Parsed<Raw> {
  const values = new Map<ValueFlag, string[]>();
  const switches = new Set<string>();
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (isValueFlag(flag) && allowedValues.includes(flag)) {
      const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
      if (value === undefined || value === '' || (eq < 0 && value.startsWith('--'))) {
        return { ok: false, message: `${flag} needs a value. See 'switchyard help'.` };
      }
      values.set(flag, [...(values.get(flag) ?? []), value]);
      continue;
    }
    if (eq < 0 && allowedSwitches.includes(arg)) {
      switches.add(arg);
      continue;
    }
    return {
      ok: false,
      message: `switchyard ${command}: unknown argument '${arg.slice(0, 100)}'. See 'switchyard help'.`,
    };
  }
  return { ok: true, value: { values, switches } };
}

function browsersOf(raw: Raw): Parsed<Browser[]> {
  const browsers: Browser[] = [];
  for (const name of raw.values.get('--browser') ?? []) {
    const lower = name.toLowerCase();
    if (!isBrowser(lower)) {
      return {
        ok: false,
        message: `Unknown browser '${name.slice(0, 100)}'. Use one of: ${BROWSERS.join(', ')}.`,
      };
    }
    if (!browsers.includes(lower)) browsers.push(lower);
  }
  return { ok: true, value: browsers };
}

function parseExtensionIds(raw: Raw): Parsed<string[]> {
  const ids: string[] = [];
  for (const id of raw.values.get('--extension-id') ?? []) {
    if (!EXTENSION_ID.test(id)) {
      return {
        ok: false,
        message: `'${id.slice(0, 100)}' is not a Chromium extension id: 32 letters a-p, as chrome://extensions shows it.`,
      };
    }
    if (!ids.includes(id)) ids.push(id);
  }
  return { ok: true, value: ids };
}

/** What `install` and `uninstall` both take; only `install` uses the extension ids. */
function parseRegistration(
  args: readonly string[],
  verb: 'install' | 'uninstall',
): Parsed<InstallArgs> {
  const raw = split(args, VALUE_FLAGS, ['--dry-run', '--json'], verb);
  if (!raw.ok) return raw;
  const browsers = browsersOf(raw.value);
  if (!browsers.ok) return browsers;
  const dirs = raw.value.values.get('--user-data-dir') ?? [];
  if (dirs.length > 1) {
    return {
      ok: false,
      message: `--user-data-dir can be given once: ${verb} one profile at a time.`,
    };
  }
  const extensionIds = parseExtensionIds(raw.value);
  if (!extensionIds.ok) return extensionIds;
  return {
    ok: true,
    value: {
      browsers: browsers.value,
      userDataDir: dirs[0] ?? null,
      extensionIds: extensionIds.value,
      dryRun: raw.value.switches.has('--dry-run'),
      json: raw.value.switches.has('--json'),
    },
  };
}

export function parseInstallArgs(args: readonly string[]): Parsed<InstallArgs> {
  return parseRegistration(args, 'install');
}

export function parseUninstallArgs(args: readonly string[]): Parsed<UninstallArgs> {
  const parsed = parseRegistration(args, 'uninstall');
  if (!parsed.ok) return parsed;
  const { browsers, userDataDir, dryRun, json } = parsed.value;
  return { ok: true, value: { browsers, userDataDir, dryRun, json } };
}
