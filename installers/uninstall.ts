import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser } from './browsers';
import type { InstallPaths } from './locations';
import {
  CACHE_DIR_NAME,
  MAIN_BUNDLE_FILE,
  isCacheFileName,
} from '../native-host/shared/code-cache';
import { FILE_MODES } from './install';
import { readReceipt, receiptText, type Receipt, type Registration } from './receipt';
import { writeFileAtomic } from '../native-host/shared/atomic-write';
import { isErrno } from '../native-host/shared/errno';
import { queryDefault, regDeleteArgv, type RegistryRunner } from './registry';

/**
 * Removes what the receipt says an install wrote, and nothing else: the manifests and registry
 * keys of the chosen browsers (all by default). When no registration is left, also the launcher,
 * the copied host (entry, main bundle, source map, code cache) and the receipt itself. The user's
 * config, trust store and audit log stay.
 */

/** `foreign`: the file or key is there but now names another install (it is left alone). */
export type RemoveStatus = 'removed' | 'absent' | 'would-remove' | 'foreign';

export interface UninstallAction {
  readonly kind: 'manifest' | 'registry' | 'launcher' | 'bundle' | 'main-bundle' | 'receipt';
  readonly target: string;
  readonly status: RemoveStatus;
  readonly browser?: Browser;
}

export interface UninstallRequest {
  readonly paths: InstallPaths;
  /** The browsers to remove; null for all. */
  readonly browsers: readonly Browser[] | null;
  /** Only registrations of this browser profile folder (`--user-data-dir`); absent or null: all. */
  readonly userDataDir?: string | null;
  readonly dryRun: boolean;
  readonly registry: RegistryRunner;
}

export type UninstallResult =
  | {
      readonly ok: true;
      readonly installed: boolean;
      readonly actions: readonly UninstallAction[];
      readonly remaining: readonly Registration[];
    }
  | { readonly ok: false; readonly message: string; readonly actions: readonly UninstallAction[] };

/** Splits the receipt's registrations into those to remove and those to keep. Pure. */
export function selectRegistrations(
  receipt: Pick<Receipt, 'registrations'>,
  browsers: readonly Browser[] | null,
  userDataDir: string | null = null,
): { remove: Registration[]; keep: Registration[] } {
  const folder = userDataDir === null ? null : path.resolve(userDataDir);
  const chosen = (r: Registration) =>
    (browsers === null || browsers.includes(r.browser)) &&
    (folder === null || (r.userDataDir !== null && path.resolve(r.userDataDir) === folder));
  return {
    remove: receipt.registrations.filter(chosen),
    keep: receipt.registrations.filter((r) => !chosen(r)),
  };
}

export async function uninstall(request: UninstallRequest): Promise<UninstallResult> {
  const actions: UninstallAction[] = [];
  const read = await readReceipt(request.paths.receipt);
  if (read.kind === 'missing') return { ok: true, installed: false, actions, remaining: [] };
  if (read.kind === 'invalid') {
    return {
      ok: false,
      actions,
      message: `${read.message} Until then, uninstall cannot tell what was installed.`,
    };
  }
  const receipt = read.receipt;
  const { remove, keep } = selectRegistrations(
    receipt,
    request.browsers,
    request.userDataDir ?? null,
  );
  const { dryRun } = request;

  for (const registration of remove) {
    // The manifest's place and the registry key are the browser's, shared by every Switchyard
    // home: another install (another SWITCHYARD_HOME) may have written them since. Only what
    // still points at this install goes.
    actions.push({
      kind: 'manifest',
      target: registration.manifest,
      browser: registration.browser,
      status: (await namesOtherLauncher(registration.manifest, receipt.launcher))
        ? 'foreign'
        : await removeFile(registration.manifest, dryRun),
    });
    if (registration.registryKey !== null) {
      actions.push({
        kind: 'registry',
        target: registration.registryKey,
        browser: registration.browser,
        status: await removeKey(
          request.registry,
          registration.registryKey,
          registration.manifest,
          dryRun,
        ),
      });
    }
    // Windows keeps manifests in Switchyard's own folder: tidy the per-browser folder there.
    await removeEmptyDirInside(path.dirname(registration.manifest), request.paths.hostDir, dryRun);
  }

  if (keep.length > 0) {
    if (!dryRun) {
      await writeFileAtomic(
        request.paths.receipt,
        receiptText({ ...receipt, registrations: keep }),
        FILE_MODES.receipt,
      );
    }
    return { ok: true, installed: true, actions, remaining: keep };
  }

  actions.push({
    kind: 'launcher',
    target: receipt.launcher,
    status: await removeFile(receipt.launcher, dryRun),
  });
  actions.push({
    kind: 'bundle',
    target: receipt.bundle,
    status: await removeFile(receipt.bundle, dryRun),
  });
  await removeFile(`${receipt.bundle}.map`, dryRun);
  // Beside the entry: the main bundle it loads, its map, and the code cache the host wrote.
  const mainBundle = path.join(path.dirname(receipt.bundle), MAIN_BUNDLE_FILE);
  actions.push({
    kind: 'main-bundle',
    target: mainBundle,
    status: await removeFile(mainBundle, dryRun),
  });
  await removeFile(`${mainBundle}.map`, dryRun);
  if (!dryRun) await removeCodeCache(path.join(path.dirname(receipt.bundle), CACHE_DIR_NAME));
  actions.push({
    kind: 'receipt',
    target: request.paths.receipt,
    status: await removeFile(request.paths.receipt, dryRun),
  });
  if (!dryRun) await fs.rmdir(request.paths.hostDir).catch(() => undefined);
  return { ok: true, installed: true, actions, remaining: [] };
}

/** The cache files the entry wrote, then the folder if nothing else is in it. */
async function removeCodeCache(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return;
  }
  for (const name of names.filter(isCacheFileName)) {
    await fs.rm(path.join(dir, name), { force: true });
  }
  await fs.rmdir(dir).catch(() => undefined);
}

async function removeFile(file: string, dryRun: boolean): Promise<RemoveStatus> {
  try {
    const stat = await fs.lstat(file);
    if (stat.isDirectory()) return 'absent';
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return 'absent';
    throw error;
  }
  if (dryRun) return 'would-remove';
  await fs.rm(file, { force: true });
  return 'removed';
}

/** Whether `manifest` is a host manifest whose `path` is another launcher than `launcher`. */
async function namesOtherLauncher(manifest: string, launcher: string): Promise<boolean> {
  let text: string;
  try {
    text = await fs.readFile(manifest, 'utf8');
  } catch {
    return false;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    const named =
      typeof parsed === 'object' && parsed !== null ? (parsed as { path?: unknown }).path : null;
    return typeof named === 'string' && named !== launcher;
  } catch {
    return false; // not a manifest anyone could use: this install's to remove
  }
}

async function removeKey(
  run: RegistryRunner,
  key: string,
  manifest: string,
  dryRun: boolean,
): Promise<RemoveStatus> {
  const value = await queryDefault(run, key);
  if (value === null) return 'absent';
  if (value !== manifest) return 'foreign';
  if (dryRun) return 'would-remove';
  const result = await run(regDeleteArgv(key));
  if (result.code !== 0) {
    throw new Error(
      `reg.exe could not delete ${key} (exit ${result.code}: ${result.stderr.trim()}); delete it with regedit.`,
    );
  }
  return 'removed';
}

async function removeEmptyDirInside(dir: string, root: string, dryRun: boolean): Promise<void> {
  const relative = path.relative(root, dir);
  if (dryRun || relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return;
  await fs.rmdir(dir).catch(() => undefined);
}
