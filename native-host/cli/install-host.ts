import os from 'node:os';
import { installPlatform } from '../../installers/browsers';
import { installPaths } from '../../installers/locations';
import { mergeSearchPath } from '../../installers/login-path';
import { readReceipt, receiptExtensionIds, type Receipt } from '../../installers/receipt';
import { switchyardHome } from '../config/paths';
import { DEFAULT_ALLOWED_CALLERS, type AllowedCallers } from '../rpc/origin';

/**
 * What the install receipt changes for a host the browser started: the PATH it resolves server
 * commands on (the login-shell PATH recorded at install, first), and the extension ids it
 * accepts (the development id plus the store ids the manifests were written for).
 */

export interface HostStartContext {
  readonly env: NodeJS.ProcessEnv;
  readonly allowedCallers: AllowedCallers;
  readonly warnings: readonly string[];
}

/** Pure: the host's environment and callers with `receipt` applied. */
export function applyReceipt(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  receipt: Receipt | null,
): { env: NodeJS.ProcessEnv; allowedCallers: AllowedCallers } {
  if (receipt === null) return { env, allowedCallers: DEFAULT_ALLOWED_CALLERS };
  const chromiumIds = [
    ...new Set([...DEFAULT_ALLOWED_CALLERS.chromiumIds, ...receiptExtensionIds(receipt)]),
  ];
  const allowedCallers = { ...DEFAULT_ALLOWED_CALLERS, chromiumIds };
  // Windows hands desktop apps the user's whole PATH; the receipt records none there.
  if (platform === 'win32' || receipt.loginPath === null) return { env, allowedCallers };
  return {
    env: { ...env, PATH: mergeSearchPath(receipt.loginPath.value, env['PATH']) },
    allowedCallers,
  };
}

/** Reads the receipt of the home the host will use; a missing one changes nothing. */
export async function hostStartContext(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  homedir: string = os.homedir(),
): Promise<HostStartContext> {
  const known = installPlatform(platform);
  let home: string;
  try {
    home = switchyardHome(env, platform, homedir);
  } catch {
    // setup reports a bad home through host/hello; nothing to add here.
    return { env, allowedCallers: DEFAULT_ALLOWED_CALLERS, warnings: [] };
  }
  if (known === null) return { env, allowedCallers: DEFAULT_ALLOWED_CALLERS, warnings: [] };
  const read = await readReceipt(installPaths(home, known).receipt);
  if (read.kind === 'ok') return { ...applyReceipt(env, platform, read.receipt), warnings: [] };
  return {
    env,
    allowedCallers: DEFAULT_ALLOWED_CALLERS,
    warnings: read.kind === 'invalid' ? [read.message] : [],
  };
}
