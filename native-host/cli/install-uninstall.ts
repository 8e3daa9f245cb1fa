import { BROWSER_INFO } from '../../installers/browsers';
import { installPaths } from '../../installers/locations';
import { uninstall as runUninstall, type UninstallAction } from '../../installers/uninstall';
import { parseUninstallArgs } from './install-args';
import {
  STATUS_TEXT,
  installTarget,
  processInstallEnvironment,
  type InstallEnvironment,
} from './install-environment';
import { table, type CliIo } from './io';
import { messageOf } from '../../protocol/guards';

/**
 * `switchyard uninstall [--browser NAME]... [--user-data-dir DIR] [--dry-run] [--json]`: removes
 * what the install
 * receipt lists (installers/uninstall.ts) and prints each file and key with what happened to it.
 */

export function makeUninstallCommand(environment: InstallEnvironment = processInstallEnvironment) {
  return async function uninstall(io: CliIo, args: readonly string[]): Promise<number> {
    const parsed = parseUninstallArgs(args);
    if (!parsed.ok) {
      io.err(`${parsed.message}\n`);
      return 2;
    }
    const options = parsed.value;
    const target = installTarget(io, 'uninstall', environment.homedir());
    if (target === null) return 1;
    const { platform, home } = target;
    const paths = installPaths(home, platform);
    let result;
    try {
      result = await runUninstall({
        paths,
        browsers: options.browsers.length === 0 ? null : options.browsers,
        userDataDir: options.userDataDir,
        dryRun: options.dryRun,
        registry: environment.registry,
      });
    } catch (error) {
      io.err(`Uninstall stopped: ${messageOf(error)}\n`);
      return 1;
    }
    if (options.json) {
      io.out(
        `${JSON.stringify(
          result.ok
            ? {
                ok: true,
                dryRun: options.dryRun,
                installed: result.installed,
                actions: result.actions,
                remaining: result.remaining,
              }
            : { ok: false, error: result.message, actions: result.actions },
          null,
          2,
        )}\n`,
      );
      return result.ok ? 0 : 1;
    }
    if (!result.ok) {
      io.err(`${result.message}\n`);
      return 1;
    }
    if (!result.installed) {
      io.out(`Nothing to uninstall: there is no install receipt at ${paths.receipt}.\n`);
      return 0;
    }
    if (result.actions.length === 0) {
      io.out('Nothing of the named browsers was installed.\n');
    } else {
      io.out(`${table(result.actions.map(describeUninstallAction))}\n\n`);
    }
    if (options.dryRun) {
      io.out('Dry run: nothing was removed.\n');
    } else if (result.remaining.length > 0) {
      const left = result.remaining.map((r) => BROWSER_INFO[r.browser].displayName).join(', ');
      io.out(`Still installed for: ${left}.\n`);
    } else {
      io.out(`Uninstalled. Your configuration, approvals and audit log in ${home} were kept.\n`);
    }
    return 0;
  };
}

function describeUninstallAction(action: UninstallAction): string[] {
  const status = STATUS_TEXT[action.status] ?? action.status;
  const name = action.browser === undefined ? '' : `${BROWSER_INFO[action.browser].displayName} `;
  const what: Readonly<Record<UninstallAction['kind'], string>> = {
    manifest: `${name}host manifest`,
    registry: `${name}registry key`,
    launcher: 'launcher',
    bundle: 'host entry',
    'main-bundle': 'host bundle (with its source map and code cache)',
    receipt: 'install receipt',
  };
  return [status, action.target, what[action.kind]];
}

export const uninstall = makeUninstallCommand();
