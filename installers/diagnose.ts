import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { DEV_EXTENSION_ID } from '../protocol/identity';
import { BROWSER_INFO, type InstallPlatform } from './browsers';
import { firefoxPackageNotes, type FirefoxPackage } from './firefox-packages';
import { parseLauncher } from './launcher';
import type { InstallPaths } from './locations';
import { StoredManifestSchema, manifestProblems } from './manifest';
import { readReceipt, type Receipt, type Registration } from './receipt';
import { errnoCode, isErrno } from '../native-host/shared/errno';
import { endOfLifeNote, nodeSupport } from '../native-host/shared/node-support';
import { RegistryUnavailableError, queryDefault, type RegistryRunner } from './registry';
import { directoryProblem, fileProblem } from './safety';

/**
 * The install section of `switchyard doctor`: per registered browser, is the manifest there, does
 * it run our launcher, does the launcher's node exist, are the origins exactly right, are the
 * files ours and closed to others; each problem with the command that fixes it. A sandboxed
 * Firefox (snap, Flatpak) gets notes on how it reaches the host: doctor cannot see from outside
 * whether the portal or proxy is there, so they are advice, not problems.
 */

export interface RegistrationReport {
  readonly registration: Registration;
  /** One line per problem, each ending with what to do. Empty when all is well. */
  readonly problems: readonly string[];
  /** Advice that is not a problem: how a snap or Flatpak Firefox reaches this manifest. */
  readonly notes: readonly string[];
}

export type InstallDiagnosis =
  | { readonly state: 'not-installed'; readonly receiptFile: string }
  | {
      readonly state: 'invalid';
      readonly receiptFile: string;
      readonly problems: readonly string[];
    }
  | {
      readonly state: 'installed';
      readonly receiptFile: string;
      readonly receipt: Receipt;
      /** Problems with the launcher, node or bundle, shared by every browser. */
      readonly problems: readonly string[];
      /** What the launcher's node says it is (`20.20.2`), or null when it cannot be asked. */
      readonly nodeVersion: string | null;
      /** Advice on that node that is not a problem: a Node past its end of life. */
      readonly notes: readonly string[];
      readonly registrations: readonly RegistrationReport[];
    };

export interface DiagnoseOptions {
  readonly paths: InstallPaths;
  readonly home: string;
  readonly platform: InstallPlatform;
  readonly uid: number | null;
  readonly registry: RegistryRunner;
  /** Linux: the Firefox packages found (detectFirefoxPackages), for the Firefox notes. */
  readonly firefoxPackages?: readonly FirefoxPackage[];
  /** What `<node> --version` prints, or null if it cannot run; without it no version is shown. */
  readonly nodeVersion?: (node: string) => Promise<string | null>;
  /** Today, for whether that node is past its end of life (default: now). */
  readonly today?: Date;
}

/** The install command that redoes `registration`, for the fix lines. */
export function reinstallCommand(registration: Registration): string {
  const ids = registration.extensionIds
    .filter((id) => id !== DEV_EXTENSION_ID)
    .map((id) => ` --extension-id ${id}`);
  const dir =
    registration.userDataDir === null
      ? ''
      : ` --user-data-dir ${quoteArg(registration.userDataDir)}`;
  return `switchyard install --browser ${registration.browser}${dir}${ids.join('')}`;
}

function quoteArg(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

export async function diagnoseInstall(options: DiagnoseOptions): Promise<InstallDiagnosis> {
  const receiptFile = options.paths.receipt;
  const read = await readReceipt(receiptFile);
  if (read.kind === 'missing') return { state: 'not-installed', receiptFile };
  if (read.kind === 'invalid') return { state: 'invalid', receiptFile, problems: [read.message] };
  const { receipt } = read;
  const problems = await launcherProblems(receipt, options);
  const registrations: RegistrationReport[] = [];
  for (const registration of receipt.registrations) {
    registrations.push({
      registration,
      problems: await registrationProblems(registration, receipt, options),
      notes:
        registration.browser === 'firefox'
          ? firefoxPackageNotes(options.firefoxPackages ?? [], receipt.node)
          : [],
    });
  }
  const printed = (await options.nodeVersion?.(receipt.node)) ?? null;
  const support = printed === null ? null : nodeSupport(printed, options.today ?? new Date());
  const note = endOfLifeNote(support);
  return {
    state: 'installed',
    receiptFile,
    receipt,
    problems,
    nodeVersion: support?.version ?? null,
    notes: note === null ? [] : [note],
    registrations,
  };
}

async function launcherProblems(receipt: Receipt, options: DiagnoseOptions): Promise<string[]> {
  const again = "run 'switchyard install' again";
  const problems: string[] = [];
  const text = await readText(receipt.launcher);
  if (text === null) {
    return [`The launcher ${receipt.launcher} is missing: ${again}.`];
  }
  const parsed = parseLauncher(text, options.platform);
  if (parsed === null) {
    return [
      `The launcher ${receipt.launcher} was changed and is not one Switchyard wrote: ${again}.`,
    ];
  }
  if (!(await isExecutableFile(parsed.node, options.platform))) {
    problems.push(
      `The launcher runs node at ${parsed.node}, which is gone or not executable (a node upgrade or a removed nvm/volta/fnm version?): ${again} with the node you use now.`,
    );
  }
  if ((await readText(parsed.bundle, 64)) === null) {
    problems.push(`The launcher runs ${parsed.bundle}, which is missing: ${again}.`);
  }
  if (parsed.home !== options.home) {
    problems.push(
      `The launcher uses Switchyard home ${parsed.home}, but this is ${options.home}: ${again} with the home you mean.`,
    );
  }
  if (options.uid !== null) {
    for (const file of [receipt.launcher, parsed.bundle]) {
      const problem = await statProblem(file, options.uid);
      if (problem !== null) problems.push(problem);
    }
    const dirProblem = await dirStatProblem(path.dirname(receipt.launcher), options.uid);
    if (dirProblem !== null) problems.push(dirProblem);
  }
  return problems;
}

async function registrationProblems(
  registration: Registration,
  receipt: Receipt,
  options: DiagnoseOptions,
): Promise<string[]> {
  const fix = `run '${reinstallCommand(registration)}'`;
  const name = BROWSER_INFO[registration.browser].displayName;
  const problems: string[] = [];
  if (registration.registryKey !== null) {
    // undefined: reg.exe did not run, so the key is neither missing nor right (said so).
    let value: string | null | undefined;
    try {
      value = await queryDefault(options.registry, registration.registryKey);
    } catch (error) {
      if (!(error instanceof RegistryUnavailableError)) throw error;
      problems.push(`${name}: ${error.message}`);
    }
    if (value === null) {
      problems.push(
        `${name}: the registry key ${registration.registryKey} is missing, so ${name} cannot find the host: ${fix}.`,
      );
    } else if (value !== undefined && value !== registration.manifest) {
      problems.push(
        `${name}: the registry key ${registration.registryKey} points to ${value}, not to ${registration.manifest}: ${fix}.`,
      );
    }
  }
  const text = await readText(registration.manifest);
  if (text === null) {
    problems.push(`${name}: the manifest ${registration.manifest} is missing: ${fix}.`);
    return problems;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    problems.push(`${name}: the manifest ${registration.manifest} is not valid JSON: ${fix}.`);
    return problems;
  }
  const manifest = StoredManifestSchema.safeParse(raw);
  if (!manifest.success) {
    problems.push(`${name}: the manifest ${registration.manifest} is not a host manifest: ${fix}.`);
    return problems;
  }
  for (const problem of manifestProblems(manifest.data, {
    browser: registration.browser,
    launcher: receipt.launcher,
    ids: registration.extensionIds,
  })) {
    problems.push(
      `${name}: the manifest ${registration.manifest}: ${problem}; ${fix} to replace it.`,
    );
  }
  if (options.uid !== null) {
    const fileIssue = await statProblem(registration.manifest, options.uid);
    if (fileIssue !== null) problems.push(`${name}: ${fileIssue}`);
    const dirIssue = await dirStatProblem(path.dirname(registration.manifest), options.uid);
    if (dirIssue !== null) problems.push(`${name}: ${dirIssue}`);
  }
  return problems;
}

async function readText(file: string, maxBytes = 1024 * 1024): Promise<string | null> {
  try {
    const handle = await fs.open(file, 'r');
    try {
      const buffer = Buffer.alloc(maxBytes);
      const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
      return buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}

async function isExecutableFile(file: string, platform: InstallPlatform): Promise<boolean> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) return false;
    if (platform !== 'win32') await fs.access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function statProblem(file: string, uid: number): Promise<string | null> {
  try {
    return fileProblem(file, await fs.lstat(file), uid);
  } catch (error) {
    return isErrno(error, 'ENOENT')
      ? null
      : `cannot check ${file} (${errnoCode(error) ?? String(error)})`;
  }
}

async function dirStatProblem(dir: string, uid: number): Promise<string | null> {
  try {
    return directoryProblem(dir, await fs.stat(dir), uid, 'target');
  } catch (error) {
    return isErrno(error, 'ENOENT')
      ? null
      : `cannot check ${dir} (${errnoCode(error) ?? String(error)})`;
  }
}
