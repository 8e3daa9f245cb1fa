import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { z } from 'zod';
import { describeConnection, type ConnectionState } from '../../../extension/messaging/connection';
import { DEV_EXTENSION_ID } from '../../../protocol/identity';
import { GUARDIAN_NAME } from '../../../native-host/supervisor/guardian';
import { ROOT, liveProcesses, processesMatching } from '../../integration/host-harness';
import type { SwitchyardProfile } from './profile';
import { uiRequest } from './ui';

/**
 * Launches Debian's Chromium with the built extension (dist/chrome-mv3) for a profile, through
 * playwright-core, and gives the test what it needs to drive and observe it: the service worker,
 * its console (the connection state it logs), the processes the browser started (native hosts
 * and the MCP servers they run), and a teardown that fails when any of them outlives the browser.
 *
 * Headless: Chromium 132+ has one headless mode, the new one, and it loads unpacked MV3
 * extensions; Playwright's `headless: true` passes `--headless`, which is that mode here.
 */

export const EXTENSION_DIR = join(ROOT, 'dist/chrome-mv3');
/** Debian's Chromium; the Playwright browser download is not used. */
export const CHROMIUM_PATH = process.env['SWITCHYARD_E2E_CHROMIUM'] ?? '/usr/bin/chromium';
/** `SWITCHYARD_E2E_HEADED=1` shows the browser (needs a display). */
const HEADED = process.env['SWITCHYARD_E2E_HEADED'] === '1';

/** How long a host and its servers may take to go once the browser has closed (design D12). */
const EXIT_GRACE_MS = 10_000;
/** How long to wait for a line in the worker's console before failing with the log so far. */
const LOG_WAIT_MS = 20_000;
const POLL_MS = 20;

/** A native host's command line: the launcher runs `<node> <bundle> host <origin>`. */
const HOST_COMMAND = /\shost chrome-extension:\/\//;

export interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  readonly args: string;
}

export interface BrowserProcesses {
  /** Chromium's own processes (the browser, zygotes, renderers, utilities). */
  readonly browser: readonly ProcessInfo[];
  /** Native hosts the browser started. */
  readonly hosts: readonly ProcessInfo[];
  /** Everything the hosts started (MCP servers and their children). */
  readonly servers: readonly ProcessInfo[];
}

export interface SwitchyardBrowser {
  readonly context: BrowserContext;
  readonly profile: SwitchyardProfile;
  /** The extension's service worker (the latest one, should it restart). */
  readonly worker: Worker;
  readonly extensionId: string;
  /** `chrome-extension://<id>` */
  readonly origin: string;
  /** The worker's console lines since launch returned (see launchBrowser), in order. */
  readonly workerLog: readonly string[];
  /**
   * Resolves with the first worker console line at index >= `from` that matches; fails after
   * LOG_WAIT_MS with the log so far.
   */
  waitForWorkerLog(match: (line: string) => boolean, from?: number): Promise<string>;
  /** Waits until the worker logs that its connection reached `state` (see connectionLine). */
  waitForConnection(state: ConnectionState['state'], from?: number): Promise<string>;
  /** Opens `chrome-extension://<id>/<path>` in a new tab, e.g. `sidepanel.html`. */
  openExtensionPage(path: string): Promise<Page>;
  /** The processes this browser started, from `ps`. */
  processes(): BrowserProcesses;
  /**
   * Closes the browser, then waits for every process it started (Chromium's, the hosts, their
   * servers) to exit; SIGKILLs and reports any that did not. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * The start of the line the worker logs for a connection state: `[switchyard] ` and
 * describeConnection's text up to its first detail (a version, a message).
 */
export function connectionLine(state: ConnectionState['state']): string {
  const detail = '\u0000';
  const sample: ConnectionState = (() => {
    switch (state) {
      case 'connecting':
        return { state, attempt: 1 };
      case 'connected':
        return { state, hostVersion: detail, home: '', configWarnings: [], runtime: null };
      case 'not-installed':
        return { state, message: detail };
      case 'crashed':
        return { state, message: detail, retryInMs: null };
      case 'protocol-mismatch':
        return { state, host: [], extension: 0, message: detail };
      case 'disconnected':
        return { state };
    }
  })();
  return `[switchyard] ${describeConnection(sample).split(detail)[0] ?? ''}`;
}

const openBrowsers = new Set<SwitchyardBrowser>();

/** Closes every browser a failed test left open (see setup.ts). */
export async function closeLeftoverBrowsers(): Promise<void> {
  const leftovers = [...openBrowsers];
  openBrowsers.clear();
  await Promise.allSettled(leftovers.map((browser) => browser.close()));
}

/** Polls `condition` (cheap) until it holds or `ms` passed; whether it held. */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  ms: number,
): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return true;
}

/** Every live process descending from (and including) `roots`. */
export function descendants(
  all: readonly ProcessInfo[],
  roots: ReadonlySet<number>,
): ProcessInfo[] {
  const inTree = new Set(roots);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) {
      if (!inTree.has(p.pid) && inTree.has(p.ppid)) {
        inTree.add(p.pid);
        grew = true;
      }
    }
  }
  return all.filter((p) => inTree.has(p.pid));
}

function processesOf(userDataDir: string): BrowserProcesses {
  // The browser process (and /usr/bin/chromium's wrapper script) carry the user-data-dir.
  return browserProcesses(
    (p) => p.args.includes(`--user-data-dir=${userDataDir}`) && !p.args.includes('--type='),
  );
}

/**
 * The processes of one browser, from its root processes down: the browser's own, the native
 * hosts it started, and the servers those run.
 */
export function browserProcesses(
  isRoot: (p: ProcessInfo) => boolean,
  /** How a native host's command line reads in this browser. */
  hostCommand: RegExp = HOST_COMMAND,
): BrowserProcesses {
  const all = liveProcesses();
  const roots = all.filter(isRoot);
  const tree = descendants(all, new Set(roots.map((p) => p.pid)));
  const hostLike = tree.filter((p) => hostCommand.test(p.args));
  const hostLikePids = new Set(hostLike.map((p) => p.pid));
  // A server the host is spawning shows the host's command line between fork and exec (tens of
  // ms, more under load): a host's child is never a host, whatever `ps` says it runs.
  const hosts = hostLike.filter((p) => !hostLikePids.has(p.ppid));
  const hostPids = new Set(hosts.map((p) => p.pid));
  // The host's guardian (native-host/supervisor/guardian.ts) is no server.
  const servers = descendants(all, hostPids).filter(
    (p) => !hostPids.has(p.pid) && !p.args.endsWith(GUARDIAN_NAME),
  );
  const notBrowser = new Set([...hostPids, ...servers.map((p) => p.pid)]);
  return { browser: tree.filter((p) => !notBrowser.has(p.pid)), hosts, servers };
}

/**
 * Closes a browser, then waits for every process it had started to exit: those in `started`,
 * and anything reparented earlier (every process of a test has its `root` in its args: the
 * browser's profile, the filesystem server's folder). SIGKILLs and reports any that did not go.
 */
export async function closeAndReap(
  started: BrowserProcesses,
  root: string,
  what: string,
  close: () => Promise<void>,
): Promise<void> {
  const pids = new Set(
    [...started.browser, ...started.hosts, ...started.servers].map((p) => p.pid),
  );
  await close();
  const survivors = (): ProcessInfo[] => [
    ...liveProcesses().filter((p) => pids.has(p.pid)),
    ...processesMatching(root).map((p) => ({ ...p, ppid: 0 })),
  ];
  if (await waitUntil(() => survivors().length === 0, EXIT_GRACE_MS)) return;
  const left = survivors();
  for (const p of left) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // Gone in the meantime.
    }
  }
  throw new Error(
    `Still running ${EXIT_GRACE_MS} ms after ${what} closed (now killed):\n` +
      left.map((p) => `  ${p.pid} ${p.args}`).join('\n'),
  );
}

/**
 * Copies the built extension into the profile and returns the copy's path. Chromium reads an
 * unpacked extension's files lazily (pages, chunks), and `wxt build` empties dist/chrome-mv3
 * before writing it: a copy keeps a rebuild during a run from changing the browser's extension.
 * The id comes from the manifest `key`, not the folder, so the copy has the same id.
 */
function snapshotExtension(root: string): string {
  const copy = join(root, 'extension');
  rmSync(copy, { recursive: true, force: true });
  if (existsSync(EXTENSION_DIR)) cpSync(EXTENSION_DIR, copy, { recursive: true });
  for (const file of ['manifest.json', 'background.js']) {
    if (!existsSync(join(copy, file))) {
      throw new Error(
        `${EXTENSION_DIR} has no ${file}: run \`npm run build\` (or wait for the running build).`,
      );
    }
  }
  return copy;
}

export async function launchBrowser(profile: SwitchyardProfile): Promise<SwitchyardBrowser> {
  if (!existsSync(CHROMIUM_PATH)) {
    // Google Chrome 137+ ignores --load-extension: these tests need Chromium (or Chrome for
    // Testing), whose path may be given.
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}: install it (Debian, Ubuntu: apt install chromium) or set SWITCHYARD_E2E_CHROMIUM to a Chromium or Chrome for Testing binary.`,
    );
  }
  const extensionDir = snapshotExtension(profile.root);
  const context = await chromium.launchPersistentContext(profile.userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: !HEADED,
    args: [
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    // The native host inherits the browser's environment: SWITCHYARD_HOME and HOME among it.
    env: profile.env,
  });

  // Attached before anything else is awaited: Playwright delivers each protocol message in its
  // own task, so every line after launch returned is kept. A line printed while the launch was
  // still resolving would be lost; the worker's first one has always come later here.
  const workerLog: string[] = [];
  const logListeners = new Set<() => void>();
  context.on('console', (message) => {
    const source = message.worker();
    if (source === null || !source.url().startsWith('chrome-extension://')) return;
    workerLog.push(message.text());
    for (const listener of logListeners) listener();
  });

  const isExtensionWorker = (w: Worker): boolean => w.url().startsWith('chrome-extension://');
  let worker: Worker;
  try {
    worker =
      context.serviceWorkers().find(isExtensionWorker) ??
      (await context.waitForEvent('serviceworker', { predicate: isExtensionWorker }));
  } catch (error) {
    await context.close();
    throw new Error(
      `The extension's service worker did not start: was ${EXTENSION_DIR} a complete build?`,
      { cause: error },
    );
  }
  context.on('serviceworker', (next) => {
    if (isExtensionWorker(next)) worker = next;
  });
  const extensionId = new URL(worker.url()).host;
  if (extensionId !== DEV_EXTENSION_ID) {
    await context.close();
    throw new Error(
      `The extension loaded as ${extensionId}, not ${DEV_EXTENSION_ID}: the manifest's \`key\` ` +
        'is missing, so the host manifest will not let it connect. Rebuild with `npm run build`.',
    );
  }
  const origin = `chrome-extension://${extensionId}`;

  const waitForWorkerLog = (match: (line: string) => boolean, from = 0): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        const line = workerLog.slice(from).find(match);
        if (line === undefined) return false;
        logListeners.delete(listener);
        clearTimeout(timer);
        resolve(line);
        return true;
      };
      const listener = (): void => {
        check();
      };
      const timer = setTimeout(() => {
        logListeners.delete(listener);
        reject(
          new Error(
            `The service worker did not log the expected line. Its log:\n${workerLog.join('\n')}`,
          ),
        );
      }, LOG_WAIT_MS);
      logListeners.add(listener);
      check();
    });

  let closing: Promise<void> | undefined;
  const browser: SwitchyardBrowser = {
    context,
    profile,
    get worker() {
      return worker;
    },
    extensionId,
    origin,
    workerLog,
    waitForWorkerLog,
    waitForConnection: async (state, from) => {
      const prefix = connectionLine(state);
      try {
        return await waitForWorkerLog((line) => line.startsWith(prefix), from);
      } catch (error) {
        // The worker logs each state once; a line printed while the launch was still resolving
        // is lost. Its own snapshot, asked from one of its pages, still tells the state it is in.
        const page = await context.newPage();
        try {
          await page.goto(`${origin}/popup.html`);
          const { connection } = z
            .looseObject({ connection: z.looseObject({ state: z.string() }) })
            .parse(await uiRequest(page, 'session/snapshot', {}));
          if (connection.state !== state) throw error;
          return `[switchyard] ${describeConnection(connection as ConnectionState)}`;
        } finally {
          await page.close();
        }
      }
    },
    openExtensionPage: async (path) => {
      const page = await context.newPage();
      await page.goto(`${origin}/${path.replace(/^\//, '')}`);
      return page;
    },
    processes: () => processesOf(profile.userDataDir),
    close: () => {
      closing ??= (async () => {
        openBrowsers.delete(browser);
        await closeAndReap(processesOf(profile.userDataDir), profile.root, 'the browser', () =>
          context.close(),
        );
      })();
      return closing;
    },
  };
  openBrowsers.add(browser);
  return browser;
}
