import { execFile } from 'node:child_process';
import os from 'node:os';
import { BROWSER_INFO, installPlatform } from '../../installers/browsers';
import { detectFirefoxPackages } from '../../installers/detect';
import { diagnoseInstall, type InstallDiagnosis } from '../../installers/diagnose';
import { installPaths } from '../../installers/locations';
import { runReg, type RegistryRunner } from '../../installers/registry';
import { switchyardHome } from '../config/paths';
import { processInstallEnvironment } from './install-environment';
import type { CliIo } from './io';

/**
 * The install section of `switchyard doctor`: text lines, the problems (each with its fix), and
 * the JSON form. Not being installed is not a problem (the CLI works without it); a broken
 * install is.
 */

export interface InstallSection {
  readonly text: string;
  readonly problems: readonly string[];
  readonly json: unknown;
  /** The extension ids the browsers' native-messaging manifests allow (none when not installed). */
  readonly extensionIds: readonly string[];
}

export interface InstallSectionOptions {
  readonly homedir?: string;
  readonly uid?: number | null;
  readonly registry?: RegistryRunner;
  /** Whether a path exists, for finding snap and Flatpak Firefox (tests pass their own). */
  readonly exists?: (p: string) => Promise<boolean>;
  /** What `<node> --version` prints (tests pass their own; default: run it). */
  readonly nodeVersion?: (node: string) => Promise<string | null>;
  readonly today?: Date;
}

/** Asks the launcher's node its version; null if it does not answer within 10 s. */
function askNodeVersion(node: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(node, ['--version'], { timeout: 10_000, windowsHide: true }, (error, stdout) => {
      resolve(error === null ? stdout.trim() : null);
    });
  });
}

export async function installSection(
  io: CliIo,
  options: InstallSectionOptions = {},
): Promise<InstallSection> {
  const platform = installPlatform(io.platform);
  const homedir = options.homedir ?? os.homedir();
  let home: string;
  try {
    home = switchyardHome(io.env, io.platform, homedir);
  } catch {
    // The config section already reports an unusable home.
    return { text: '', problems: [], json: null, extensionIds: [] };
  }
  if (platform === null) {
    return {
      text: `Browser install: not supported on ${io.platform}.\n`,
      problems: [],
      json: null,
      extensionIds: [],
    };
  }
  const uid =
    options.uid !== undefined
      ? options.uid
      : platform === 'win32' || typeof process.getuid !== 'function'
        ? null
        : process.getuid();
  const diagnosis = await diagnoseInstall({
    paths: installPaths(home, platform),
    home,
    platform,
    uid,
    registry: options.registry ?? runReg,
    firefoxPackages: await detectFirefoxPackages(
      { platform, homedir, env: io.env },
      options.exists ?? processInstallEnvironment.exists,
    ),
    nodeVersion: options.nodeVersion ?? askNodeVersion,
    ...(options.today === undefined ? {} : { today: options.today }),
  });
  return {
    text: sectionText(diagnosis),
    problems: problemsOf(diagnosis),
    json: jsonOf(diagnosis),
    extensionIds:
      diagnosis.state === 'installed'
        ? [...new Set(diagnosis.registrations.flatMap((r) => r.registration.extensionIds))]
        : [],
  };
}

function problemsOf(diagnosis: InstallDiagnosis): string[] {
  switch (diagnosis.state) {
    case 'not-installed':
      return [];
    case 'invalid':
      return [...diagnosis.problems];
    case 'installed':
      return [...diagnosis.problems, ...diagnosis.registrations.flatMap((r) => r.problems)];
  }
}

function sectionText(diagnosis: InstallDiagnosis): string {
  switch (diagnosis.state) {
    case 'not-installed':
      return "Browser install: not installed. Run 'switchyard install' to let your browser start the host.\n";
    case 'invalid':
      return `Browser install: the receipt ${diagnosis.receiptFile} cannot be read.\n`;
    case 'installed': {
      const { receipt } = diagnosis;
      const lines = [
        `Browser install (${diagnosis.receiptFile}):`,
        `  launcher   ${receipt.launcher}${diagnosis.problems.length === 0 ? '' : '  [PROBLEM]'}`,
        `  node       ${receipt.node}${diagnosis.nodeVersion === null ? '' : ` (${diagnosis.nodeVersion})`}`,
        `  PATH       ${
          receipt.loginPath === null
            ? 'as the browser gives it'
            : `${receipt.loginPath.source === 'login-shell' ? 'login shell' : 'install terminal'}, ${receipt.loginPath.value.split(':').length} folders recorded`
        }`,
      ];
      for (const report of diagnosis.registrations) {
        const r = report.registration;
        const state = report.problems.length === 0 ? 'ok' : 'PROBLEM';
        lines.push(
          `  ${BROWSER_INFO[r.browser].displayName.padEnd(15)}${state.padEnd(9)}${r.manifest}${r.registryKey === null ? '' : ` (${r.registryKey})`}`,
        );
        for (const note of report.notes) lines.push(`    note: ${note}`);
      }
      if (diagnosis.registrations.length === 0) lines.push('  no browser is registered');
      for (const note of diagnosis.notes) lines.push(`  note: ${note}`);
      return `${lines.join('\n')}\n`;
    }
  }
}

function jsonOf(diagnosis: InstallDiagnosis): unknown {
  switch (diagnosis.state) {
    case 'not-installed':
      return { state: 'not-installed', receipt: diagnosis.receiptFile };
    case 'invalid':
      return { state: 'invalid', receipt: diagnosis.receiptFile, problems: diagnosis.problems };
    case 'installed':
      return {
        state: 'installed',
        receipt: diagnosis.receiptFile,
        launcher: diagnosis.receipt.launcher,
        node: diagnosis.receipt.node,
        nodeVersion: diagnosis.nodeVersion,
        notes: diagnosis.notes,
        loginPath: diagnosis.receipt.loginPath,
        problems: diagnosis.problems,
        browsers: diagnosis.registrations.map((r) => ({
          browser: r.registration.browser,
          manifest: r.registration.manifest,
          registryKey: r.registration.registryKey,
          userDataDir: r.registration.userDataDir,
          extensionIds: r.registration.extensionIds,
          problems: r.problems,
          notes: r.notes,
        })),
      };
  }
}
