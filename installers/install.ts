import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, InstallPlatform } from './browsers';
import { targetDirectories, type InstallPlan } from './plan';
import { mergeRegistrations, receiptText, type Receipt, type Registration } from './receipt';
import { writeFileAtomic } from '../native-host/shared/atomic-write';
import { errnoCode, isErrno } from '../native-host/shared/errno';
import { queryDefault, regAddArgv, type RegistryRunner } from './registry';
import { checkTargetDirectory } from './safety';
import { messageOf } from '../protocol/guards';
import { BUILD_LINE_PREFIX, MAIN_BUNDLE_FILE } from '../native-host/shared/code-cache';

/**
 * Carries out an install plan: copies the host (its main bundle with the source map, then the
 * entry that loads it) into Switchyard's own folder (so cleaning the npx cache or moving the
 * repository does not break the browser), writes the launcher, each
 * manifest and, on Windows, each registry key, then the receipt. Every folder is checked first;
 * one that others could write to stops the install before anything is written. Each file is
 * written atomically with its exact mode, and only when its bytes or mode differ, so a re-install
 * reports "unchanged" and touches nothing.
 */

export const FILE_MODES = {
  bundle: 0o644,
  launcher: 0o755,
  manifest: 0o644,
  receipt: 0o600,
} as const;
export const DIR_MODE = 0o700;

export type ActionStatus = 'written' | 'unchanged' | 'would-write';

export interface InstallAction {
  readonly kind:
    'main-bundle' | 'source-map' | 'bundle' | 'launcher' | 'manifest' | 'registry' | 'receipt';
  /** A file path, or a registry key. */
  readonly target: string;
  readonly status: ActionStatus;
  readonly browser?: Browser;
}

export interface ApplyOptions {
  readonly platform: InstallPlatform;
  /**
   * The running entry to copy (dist/host/switchyard.cjs of the package, archive or repo); the
   * main bundle beside it is copied too.
   */
  readonly bundleSource: string;
  readonly dryRun: boolean;
  /** The user's uid for the ownership checks; null skips them (Windows). */
  readonly uid: number | null;
  readonly registry: RegistryRunner;
}

export type ApplyResult =
  | { readonly ok: true; readonly actions: readonly InstallAction[]; readonly receipt: Receipt }
  | {
      readonly ok: false;
      readonly message: string;
      readonly actions: readonly InstallAction[];
    };

export class InstallError extends Error {}

export async function applyInstall(
  plan: InstallPlan,
  previous: Receipt | null,
  options: ApplyOptions,
): Promise<ApplyResult> {
  const actions: InstallAction[] = [];
  const { uid, dryRun } = options;

  if (uid !== null) {
    const problems: string[] = [];
    for (const dir of targetDirectories(plan, options.platform)) {
      problems.push(...(await checkTargetDirectory(dir, uid)));
    }
    if (problems.length > 0) {
      return {
        ok: false,
        actions,
        message: `Refusing to install: ${[...new Set(problems)].join(' ')} Nothing was written.`,
      };
    }
  }

  const bundleText = await readHostFile(options.bundleSource, HOST_FILES.entry);
  if (!bundleText.ok) return { ok: false, actions, message: bundleText.message };
  const mainSource = path.join(path.dirname(options.bundleSource), MAIN_BUNDLE_FILE);
  const mainText = await readHostFile(mainSource, HOST_FILES.main);
  if (!mainText.ok) return { ok: false, actions, message: mainText.message };

  const completed: Registration[] = [];
  let hostDirMade = false;
  try {
    await ensureDir(plan.paths.hostDir, uid, dryRun);
    hostDirMade = true;
    const sameFile = await isSameFile(options.bundleSource, plan.paths.bundle);
    // The main bundle first: a host starting meanwhile runs the entry it finds with whichever
    // main bundle is there, and the entry only ever loads the file beside it.
    actions.push({
      kind: 'main-bundle',
      target: plan.paths.mainBundle,
      status: sameFile
        ? 'unchanged'
        : await writeIfChanged(plan.paths.mainBundle, mainText.bytes, FILE_MODES.bundle, dryRun),
    });
    const map = sameFile ? null : await copySourceMap(mainSource, plan.paths.mainBundle, dryRun);
    if (map !== null)
      actions.push({ kind: 'source-map', target: `${plan.paths.mainBundle}.map`, status: map });
    actions.push({
      kind: 'bundle',
      target: plan.paths.bundle,
      status: sameFile
        ? 'unchanged'
        : await writeIfChanged(plan.paths.bundle, bundleText.bytes, FILE_MODES.bundle, dryRun),
    });
    // An install before decision 0033 kept the whole host in switchyard.cjs, with its map.
    if (!sameFile && !dryRun) await fs.rm(`${plan.paths.bundle}.map`, { force: true });
    actions.push({
      kind: 'launcher',
      target: plan.paths.launcher,
      status: await writeIfChanged(
        plan.paths.launcher,
        Buffer.from(plan.launcherText, 'utf8'),
        FILE_MODES.launcher,
        dryRun,
      ),
    });
    for (const planned of plan.manifests) {
      const { registration } = planned;
      await ensureDir(path.dirname(registration.manifest), uid, dryRun);
      actions.push({
        kind: 'manifest',
        target: registration.manifest,
        browser: planned.browser,
        status: await writeIfChanged(
          registration.manifest,
          Buffer.from(planned.text, 'utf8'),
          FILE_MODES.manifest,
          dryRun,
        ),
      });
      // Recorded once its manifest is there, key or not: uninstall checks a key before deleting.
      completed.push(registration);
      if (registration.registryKey !== null) {
        actions.push({
          kind: 'registry',
          target: registration.registryKey,
          browser: planned.browser,
          status: await setRegistryKey(
            options.registry,
            registration.registryKey,
            registration.manifest,
            dryRun,
          ),
        });
      }
    }
  } catch (error) {
    const message = error instanceof InstallError ? error.message : describe(error);
    // Whatever was written is recorded, so 'switchyard uninstall' can remove it: the launcher
    // and the host copy too, when no manifest was written (a receipt without registrations).
    if (!dryRun && hostDirMade) {
      const partial = {
        ...plan.receipt,
        registrations: mergeRegistrations(previous?.registrations ?? [], completed),
      };
      await writeIfChanged(
        plan.paths.receipt,
        Buffer.from(receiptText(partial)),
        FILE_MODES.receipt,
        false,
      ).catch(() => 'unchanged');
    }
    return {
      ok: false,
      actions,
      message:
        `The install stopped: ${message} ${dryRun ? '' : "Then run 'switchyard install' again; 'switchyard uninstall' removes what was written so far."}`.trimEnd(),
    };
  }
  actions.push({
    kind: 'receipt',
    target: plan.paths.receipt,
    status: await writeIfChanged(
      plan.paths.receipt,
      Buffer.from(receiptText(plan.receipt), 'utf8'),
      FILE_MODES.receipt,
      dryRun,
    ),
  });
  return { ok: true, actions, receipt: plan.receipt };
}

const REBUILD =
  "Install from the built bundle: 'npm run build:host', then 'node dist/host/switchyard.cjs install'.";

/** The entry (switchyard.cjs) and the main bundle beside it, each known by its first line. */
const HOST_FILES = {
  entry: { firstLine: '#!/usr/bin/env node', isNot: 'the bundled host', name: 'the host bundle' },
  main: {
    firstLine: BUILD_LINE_PREFIX,
    isNot: "the host's main bundle",
    name: "the host's main bundle",
  },
} as const;

async function readHostFile(
  source: string,
  file: (typeof HOST_FILES)[keyof typeof HOST_FILES],
): Promise<{ ok: true; bytes: Buffer } | { ok: false; message: string }> {
  try {
    const bytes = await fs.readFile(source);
    if (!bytes.subarray(0, 200).toString('utf8').startsWith(file.firstLine)) {
      return { ok: false, message: `${source} is not ${file.isNot}. ${REBUILD}` };
    }
    return { ok: true, bytes };
  } catch (error) {
    return {
      ok: false,
      message: `cannot read ${file.name} ${source} (${errnoCode(error) ?? String(error)}). ${REBUILD}`,
    };
  }
}

/** Creates `dir` (and missing parents) as 0700, then checks the result is ours and not open. */
async function ensureDir(dir: string, uid: number | null, dryRun: boolean): Promise<void> {
  if (dryRun) return;
  await fs.mkdir(dir, { recursive: true, mode: DIR_MODE });
  if (uid === null) return;
  // Again after creating: a folder someone else made in between (mkdir -p accepts it) counts.
  const problems = await checkTargetDirectory(dir, uid);
  if (problems.length > 0) throw new InstallError(problems.join(' '));
}

/**
 * Writes `bytes` to `file` with `mode` unless it already holds exactly those bytes with that
 * mode. A file found with other content (say, a manifest someone widened) is replaced whole.
 */
async function writeIfChanged(
  file: string,
  bytes: Uint8Array,
  mode: number,
  dryRun: boolean,
): Promise<ActionStatus> {
  try {
    const stat = await fs.lstat(file);
    // Windows has no mode bits beyond read-only; there the bytes alone decide.
    const modeOk = process.platform === 'win32' || (stat.mode & 0o7777) === mode;
    if (stat.isFile() && modeOk) {
      const existing = await fs.readFile(file);
      if (Buffer.compare(existing, bytes) === 0) return 'unchanged';
    }
  } catch (error) {
    if (!isErrno(error, 'ENOENT') && !isErrno(error, 'ENOTDIR')) throw error;
  }
  if (dryRun) return 'would-write';
  await writeFileAtomic(file, bytes, mode);
  return 'written';
}

async function isSameFile(a: string, b: string): Promise<boolean> {
  try {
    return (await fs.realpath(a)) === (await fs.realpath(b));
  } catch {
    return false;
  }
}

/** The bundle's source map keeps stack traces readable; copied when the build has one. */
async function copySourceMap(
  source: string,
  target: string,
  dryRun: boolean,
): Promise<ActionStatus | null> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(`${source}.map`);
  } catch {
    return null;
  }
  return writeIfChanged(`${target}.map`, bytes, FILE_MODES.bundle, dryRun);
}

async function setRegistryKey(
  run: RegistryRunner,
  key: string,
  manifest: string,
  dryRun: boolean,
): Promise<ActionStatus> {
  if ((await queryDefault(run, key)) === manifest) return 'unchanged';
  if (dryRun) return 'would-write';
  const result = await run(regAddArgv(key, manifest));
  if (result.code !== 0) {
    throw new InstallError(
      `reg.exe could not write ${key} (exit ${result.code}: ${result.stderr.trim()}). Check that your account may change HKEY_CURRENT_USER, then run 'switchyard install' again.`,
    );
  }
  return 'written';
}

function describe(error: unknown): string {
  const code = errnoCode(error);
  const target =
    typeof error === 'object' && error !== null && 'path' in error && typeof error.path === 'string'
      ? ` (${error.path})`
      : '';
  if (code === 'EACCES' || code === 'EPERM')
    return `permission denied${target}; check that you own the folder.`;
  if (code === 'EISDIR') return `a folder is in the way${target}; remove it and try again.`;
  return messageOf(error);
}
