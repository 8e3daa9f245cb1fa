import path from 'node:path';
import { DEV_EXTENSION_ID } from '../../protocol/identity';
import { BROWSER_INFO, type Browser } from '../../installers/browsers';
import { detectBrowsers, detectFirefoxPackages } from '../../installers/detect';
import { firefoxPackageNotes } from '../../installers/firefox-packages';
import { applyInstall, type InstallAction } from '../../installers/install';
import { installPaths } from '../../installers/locations';
import type { RecordedPath } from '../../installers/login-path';
import { planInstall, type PlannedManifest } from '../../installers/plan';
import { readReceipt } from '../../installers/receipt';
import { HOST_NODE_FLAGS, hostEnvFor } from '../shared/node-flags';
import { HOST_VERSION } from '../shared/version';
import { endOfLifeNote, nodeSupport } from '../shared/node-support';
import { parseInstallArgs } from './install-args';
import {
  STATUS_TEXT,
  installTarget,
  processInstallEnvironment,
  type InstallEnvironment,
} from './install-environment';
import { table, type CliIo } from './io';

/**
 * `switchyard install`: registers the native-messaging host with the browsers on this machine (or
 * the ones named). The work is in installers/; this module gathers the machine's facts (home
 * folder, node, the running bundle, installed browsers, the login PATH), runs it, and prints
 * exactly what was written.
 */

export function makeInstallCommand(environment: InstallEnvironment = processInstallEnvironment) {
  return async function install(io: CliIo, args: readonly string[]): Promise<number> {
    const parsed = parseInstallArgs(args);
    if (!parsed.ok) {
      io.err(`${parsed.message}\n`);
      return 2;
    }
    const options = parsed.value;
    const homedir = environment.homedir();
    const target = installTarget(io, 'install', homedir);
    if (target === null) return 1;
    const { platform, home } = target;
    // The host is installed per user; under sudo the files would belong to root (and land in
    // root's home, or root-owned in yours), and the browser's host could not read its receipt.
    if (platform !== 'win32' && environment.uid() === 0 && io.env['SUDO_USER'] !== undefined) {
      io.err(
        `Run 'switchyard install' as ${io.env['SUDO_USER']}, without sudo: the host is installed for one user and needs no administrator rights.\n`,
      );
      return 1;
    }
    if (options.userDataDir !== null && options.browsers.length === 0) {
      io.err(
        '--user-data-dir belongs to one browser: name it, e.g. --browser chromium --user-data-dir DIR.\n',
      );
      return 2;
    }

    let browsers: readonly Browser[] = options.browsers;
    if (browsers.length === 0) {
      browsers = await detectBrowsers({ platform, homedir, env: io.env }, environment.exists);
      if (browsers.length === 0) {
        io.err(
          'No supported browser was found. Name yours: switchyard install --browser chrome (or chromium, edge, brave, vivaldi, firefox).\n',
        );
        return 1;
      }
    }

    const bundleSource = await environment.bundleSource();
    if (bundleSource === null) {
      io.err(
        "Cannot tell which host bundle is running. Run the built bundle: 'node dist/host/switchyard.cjs install'.\n",
      );
      return 1;
    }

    const paths = installPaths(home, platform);
    const previousRead = await readReceipt(paths.receipt);
    if (previousRead.kind === 'invalid') {
      io.err(`Warning: ${previousRead.message} It will be replaced.\n`);
    }
    const previous = previousRead.kind === 'ok' ? previousRead.receipt : null;
    const loginPath = platform === 'win32' ? null : await environment.recordLoginPath(io.env);
    const userDataDir =
      options.userDataDir === null
        ? null
        : platform === 'win32'
          ? options.userDataDir
          : path.resolve(environment.cwd(), options.userDataDir);

    const planned = planInstall(
      {
        platform,
        homedir,
        home,
        xdgConfigHome: io.env['XDG_CONFIG_HOME'],
        browsers,
        userDataDir,
        extensionIds: [DEV_EXTENSION_ID, ...options.extensionIds],
        node: environment.node,
        version: HOST_VERSION,
        loginPath,
      },
      previous,
    );
    if (!planned.ok) {
      io.err(`${planned.message}\n`);
      return 1;
    }
    const { plan } = planned;
    const result = await applyInstall(plan, previous, {
      platform,
      bundleSource,
      dryRun: options.dryRun,
      uid: platform === 'win32' ? null : environment.uid(),
      registry: environment.registry,
    });

    // A snap or Flatpak Firefox reaches this same manifest only through a service outside its
    // sandbox; say how, rather than promise a connection that cannot happen.
    const firefoxNotes = browsers.includes('firefox')
      ? firefoxPackageNotes(
          await detectFirefoxPackages({ platform, homedir, env: io.env }, environment.exists),
          environment.node,
        )
      : [];
    const nodeNote = endOfLifeNote(nodeSupport(environment.nodeVersion, environment.today()));
    const notes = nodeNote === null ? firefoxNotes : [...firefoxNotes, nodeNote];

    if (options.json) {
      io.out(
        `${JSON.stringify(
          {
            ok: result.ok,
            ...(result.ok ? {} : { error: result.message }),
            dryRun: options.dryRun,
            version: HOST_VERSION,
            home,
            node: environment.node,
            nodeVersion: environment.nodeVersion,
            bundleSource,
            launcher: plan.paths.launcher,
            bundle: plan.paths.bundle,
            receipt: plan.paths.receipt,
            loginPath,
            browsers: plan.manifests.map((m) => ({
              browser: m.browser,
              manifestPath: m.registration.manifest,
              registryKey: m.registration.registryKey,
              userDataDir: m.registration.userDataDir,
              manifest: m.manifest,
            })),
            actions: result.actions,
            notes,
          },
          null,
          2,
        )}\n`,
      );
      return result.ok ? 0 : 1;
    }

    const names = plan.manifests.map((m) => BROWSER_INFO[m.browser].displayName).join(', ');
    io.out(
      `Switchyard ${HOST_VERSION}: ${options.dryRun ? 'would install' : 'installing'} the native-messaging host for ${names}.\n\n`,
    );
    if (result.actions.length > 0) {
      io.out(
        `${table(result.actions.map((a) => describeInstallAction(a, plan.manifests, bundleSource, environment.node, platform)))}\n\n`,
      );
    }
    if (!result.ok) {
      io.err(`${result.message}\n`);
      return 1;
    }
    io.out(loginPathText(loginPath));
    if (options.dryRun) {
      io.out('Dry run: nothing was written.\n');
    } else {
      io.out(
        `Done. The Switchyard extension can connect now${firefoxNotes.length === 0 ? '' : ' (a sandboxed Firefox: see below)'}. 'switchyard doctor' checks the install; 'switchyard uninstall' removes it.\n`,
      );
    }
    for (const note of notes) io.out(`\nNote: ${note}\n`);
    return 0;
  };
}

function describeInstallAction(
  action: InstallAction,
  manifests: readonly PlannedManifest[],
  bundleSource: string,
  node: string,
  platform: NodeJS.Platform,
): string[] {
  const status = STATUS_TEXT[action.status] ?? action.status;
  switch (action.kind) {
    case 'main-bundle':
      return [status, action.target, `host bundle, copied from ${path.dirname(bundleSource)}`];
    case 'source-map':
      return [
        status,
        action.target,
        "the bundle's source map (mapped stack traces under node --enable-source-maps)",
      ];
    case 'bundle':
      return [status, action.target, "the host's entry: loads the bundle through V8's code cache"];
    case 'launcher':
      return [
        status,
        action.target,
        `launcher: ${[
          ...Object.entries(hostEnvFor(platform)).map(([name, value]) => `${name}=${value}`),
          node,
          ...HOST_NODE_FLAGS,
        ].join(' ')} <bundle> host`,
      ];
    case 'manifest': {
      const planned = manifests.find((m) => m.registration.manifest === action.target);
      const manifest = planned?.manifest;
      const allows =
        manifest === undefined
          ? ''
          : 'allowed_origins' in manifest
            ? `, allows ${manifest.allowed_origins.join(' ')}`
            : `, allows ${manifest.allowed_extensions.join(' ')}`;
      const name = action.browser === undefined ? '' : BROWSER_INFO[action.browser].displayName;
      return [status, action.target, `${name} host manifest${allows}`];
    }
    case 'registry':
      return [status, action.target, 'registry key (default value: the manifest above)'];
    case 'receipt':
      return [status, action.target, 'install receipt (what uninstall removes)'];
  }
}

function loginPathText(loginPath: RecordedPath | null): string {
  if (loginPath === null) return '';
  const count = loginPath.value.split(':').length;
  return loginPath.source === 'login-shell'
    ? `Server commands will be looked up on your login shell's PATH (${loginPath.shell ?? 'sh'}), recorded now: ${count} folders.\n`
    : `Your login shell did not answer; server commands will be looked up on the PATH of this terminal, recorded now: ${count} folders.\n`;
}

export const install = makeInstallCommand();
