import path from 'node:path';
import { formatCommandLine } from '../../protocol/argv';
import { BROWSER_KIND_INFO } from './browsers';
import type { StartLayout } from './demo';
import type { LaunchOutcome } from './launch';
import type { HeadlessReason, StartPlan } from './plan';

/**
 * What `npm start` prints, as pure functions of the plan and the layout: short, with the exact
 * commands and folders, and never claiming what did not happen (branded Chrome gets the steps
 * to load the extension, not "loaded").
 */

type BrowserPlan = Extract<StartPlan, { kind: 'browser' }>;

/** `p` relative to the clone when inside it (shorter to read), else as is. */
export function shown(layout: StartLayout, p: string): string {
  const relative = path.relative(layout.root, p);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : p;
}

export function headlessReasonText(reason: HeadlessReason, platform: NodeJS.Platform): string {
  switch (reason) {
    case 'flag':
      return '--headless';
    case 'no-display':
      return 'no display: neither DISPLAY nor WAYLAND_DISPLAY is set';
    case 'no-browser':
      return 'no Chromium-family browser found; set SWITCHYARD_BROWSER=/path/to/browser to name one';
    case 'unsupported-os':
      return `${platform} has no browser installer; Linux, macOS and Windows do`;
  }
}

/** How to use Switchyard in the user's everyday browser (the end of the headless path). */
export function ownBrowserText(layout: StartLayout): string {
  const cli = `node ${shown(layout, layout.bundle)}`;
  return [
    'To use Switchyard in your own browser:',
    `  1. ${cli} install`,
    '       registers the host with every browser it finds (--browser chrome for one; docs/install.md)',
    '  2. Load the extension:',
    `       Chrome, Edge, Brave, Chromium, Vivaldi: chrome://extensions -> turn on Developer mode -> Load unpacked -> ${layout.extensionSource}`,
    `       Firefox: about:debugging#/runtime/this-firefox -> Load Temporary Add-on -> ${path.join(layout.firefoxExtension, 'manifest.json')} (until Firefox restarts)`,
    '  3. Click the Switchyard toolbar icon -> Open chat (or press Alt+Shift+Y); pick your model provider in its Options.',
    `  4. Add your own servers: ${cli} add files -- npx -y @modelcontextprotocol/server-filesystem ~/Documents`,
  ].join('\n');
}

/** The Load-unpacked steps, for a browser that ignores --load-extension (or failed to). */
export function loadUnpackedSteps(layout: StartLayout): string[] {
  return [
    '  1. Type chrome://extensions in the address bar and turn on "Developer mode" (top right).',
    `  2. Click "Load unpacked" and choose ${layout.extensionDir}`,
    '  3. Pin Switchyard from the puzzle-piece menu, click it and "Open chat" (or press Alt+Shift+Y);',
    '     right-click it -> Options to pick your model provider.',
  ];
}

function setupLines(plan: BrowserPlan, layout: StartLayout): string[] {
  const info = BROWSER_KIND_INFO[plan.browser.kind];
  return [
    `  profile      ${shown(layout, layout.userDataDir)} (a profile of its own: your everyday one is not touched)`,
    `  extension    ${shown(layout, layout.extensionDir)} (a copy of ${shown(layout, layout.extensionSource)}, so a rebuild does not disturb the open browser)`,
    plan.installsForAllProfiles
      ? `  host         registered for every ${info.displayName} profile (Windows registers hosts per browser), running with SWITCHYARD_HOME=${shown(layout, layout.home)}`
      : `  host         registered for this profile only, running with SWITCHYARD_HOME=${shown(layout, layout.home)}`,
    `  browser log  ${shown(layout, layout.browserLog)}`,
  ];
}

/** Printed after the browser started (or handed the window to the one already running). */
export function openedText(
  plan: BrowserPlan,
  layout: StartLayout,
  outcome: Extract<LaunchOutcome, { kind: 'running' | 'handed-over' }>,
): string {
  const info = BROWSER_KIND_INFO[plan.browser.kind];
  const name = plan.browser.kind === 'other' ? plan.browser.executable : info.displayName;
  const lines: string[] = [];
  if (info.loadsExtensionFlag) {
    lines.push(
      outcome.kind === 'running'
        ? `Opened ${name} (${plan.browser.executable}) with Switchyard loaded:`
        : `${name} was already open on this profile: it opened a new window.`,
      ...setupLines(plan, layout),
      '',
      'Next, in the browser:',
      "  1. The first tab is Switchyard's options page: choose your model provider and enter its API key.",
      '  2. Open the chat: click the Switchyard icon in the toolbar (under the puzzle piece until you',
      '     pin it), then "Open chat"; or press Alt+Shift+Y.',
      '  3. Go to the welcome.md tab: the side panel switches to the Demo profile. Ask it',
      '     "What is in the demo folder?" Reading runs at once; saving to memory asks you first.',
      '',
      `If Switchyard is not in the toolbar, load it by hand: chrome://extensions -> Developer mode -> Load unpacked -> ${layout.extensionDir}`,
    );
  } else {
    lines.push(
      outcome.kind === 'running'
        ? `Opened ${name} (${plan.browser.executable}):`
        : `${name} was already open on this profile: it opened a new window.`,
      ...setupLines(plan, layout),
      '',
      `${name} 137 and later ignore --load-extension, so load Switchyard by hand, once for this profile:`,
      ...loadUnpackedSteps(layout),
      '  4. Back in the welcome.md tab, the side panel uses the Demo profile.',
      'The host is already registered, so it connects once loaded. The profile keeps the extension;',
      'after a later npm start, click its reload icon in chrome://extensions to run the new build.',
      'Chromium, Edge and Brave load it for you: SWITCHYARD_BROWSER=/path/to/browser npm start',
    );
  }
  if (outcome.kind === 'handed-over' && info.loadsExtensionFlag) {
    lines.push(
      'To run the new build there, click the reload icon on Switchyard in chrome://extensions, or close',
      'that browser and run npm start again.',
    );
  }
  if (plan.launch.noSandbox) {
    lines.push(
      "Started with --no-sandbox: Chromium's sandbox does not run as root. Run npm start as your own user to keep it.",
    );
  }
  if (plan.browser.executable.startsWith('/snap/')) {
    lines.push(
      'This is a snap browser: its sandbox may keep it from starting the host. If the side panel says so, use the vendor package (docs/install.md).',
    );
  }
  if (plan.installsForAllProfiles) {
    lines.push(
      `Windows registers a host per browser: every ${info.displayName} profile now reaches the demo's host. 'node ${shown(layout, layout.bundle)} install' points it back at your own.`,
    );
  }
  return lines.join('\n');
}

/** What --dry-run prints for the browser path: each command exactly, nothing run. */
export function dryRunBrowserText(plan: BrowserPlan, layout: StartLayout): string {
  return [
    `Would open ${BROWSER_KIND_INFO[plan.browser.kind].displayName} (${plan.browser.executable}${plan.browser.source === 'env' ? ', from SWITCHYARD_BROWSER' : ''}):`,
    `  SWITCHYARD_HOME=${layout.home} ${formatCommandLine([process.execPath, layout.bundle, ...plan.installArgs])}`,
    `  copy ${layout.extensionSource} to ${layout.extensionDir}`,
    `  ${formatCommandLine([plan.browser.executable, ...plan.args])}  (detached, output to ${layout.browserLog})`,
  ].join('\n');
}
