import { spawn } from 'node:child_process';
import { closeSync, cpSync, existsSync, openSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { BROWSER_KIND_INFO, type BrowserKind } from './browsers';

/**
 * How `npm start` opens the browser: the command line (pure, tested), the environment it gets,
 * and a detached launch that reports a browser that died at once (no usable display, a
 * sandbox refusing to run as root) instead of printing "opened" over it.
 */

export interface BrowserLaunch {
  readonly kind: BrowserKind;
  /** Absolute: the dedicated profile, so the user's everyday profile is never touched. */
  readonly userDataDir: string;
  /** Absolute: the unpacked extension to load. */
  readonly extensionDir: string;
  /** Pages opened in the first window, in order (the first one is in front). */
  readonly startUrls: readonly string[];
  /** Linux as root: Chromium refuses to start its sandbox, so it needs `--no-sandbox`. */
  readonly noSandbox: boolean;
}

/**
 * The browser's arguments. Chromium, Edge, Brave, Vivaldi and Chrome for Testing get the
 * extension through `--load-extension` (and `--disable-extensions-except`, so no other extension
 * of that profile runs beside it); branded Google Chrome ignores both since 137, so it gets
 * neither and the caller prints the Load-unpacked steps.
 */
export function browserArgs(launch: BrowserLaunch): string[] {
  const loads = BROWSER_KIND_INFO[launch.kind].loadsExtensionFlag;
  return [
    `--user-data-dir=${launch.userDataDir}`,
    '--no-first-run',
    '--no-default-browser-check',
    ...(loads
      ? [
          `--load-extension=${launch.extensionDir}`,
          `--disable-extensions-except=${launch.extensionDir}`,
        ]
      : []),
    ...(launch.noSandbox ? ['--no-sandbox'] : []),
    ...launch.startUrls,
  ];
}

/**
 * The browser's environment: this terminal's, without what npm adds for the script (`npm_*`,
 * `INIT_CWD`). The browser outlives `npm start`, and the native hosts it starts inherit this.
 */
export function browserEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) {
    if (/^npm_/i.test(key) || key === 'INIT_CWD') continue;
    out[key] = value;
  }
  return out;
}

/** How long a browser that is going to fail at start (no display, say) takes to exit. */
export const EARLY_EXIT_MS = 1_500;

export type LaunchOutcome =
  | { readonly kind: 'running'; readonly pid: number }
  /** Exited with 0 at once: it handed its window to the browser already using the profile. */
  | { readonly kind: 'handed-over' }
  | { readonly kind: 'failed'; readonly message: string };

/**
 * Starts the browser in its own process group, its output appended to `logFile`, and leaves it
 * running after this process exits. Waits up to `earlyExitMs` to tell a browser that started
 * from one that died.
 */
export async function launchDetached(
  executable: string,
  args: readonly string[],
  options: {
    readonly env: NodeJS.ProcessEnv;
    readonly cwd: string;
    readonly logFile: string;
    readonly earlyExitMs?: number;
  },
): Promise<LaunchOutcome> {
  const log = openSync(options.logFile, 'w');
  try {
    const child = spawn(executable, args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', log, log],
    });
    const outcome = await new Promise<LaunchOutcome>((resolve) => {
      const timer = setTimeout(() => {
        resolve({ kind: 'running', pid: child.pid ?? 0 });
      }, options.earlyExitMs ?? EARLY_EXIT_MS);
      child.once('error', (error) => {
        clearTimeout(timer);
        resolve({ kind: 'failed', message: error.message });
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        resolve(
          code === 0
            ? { kind: 'handed-over' }
            : {
                kind: 'failed',
                message: `it exited at once (${signal === null ? `code ${String(code)}` : signal})`,
              },
        );
      });
    });
    child.unref();
    return outcome;
  } finally {
    closeSync(log);
  }
}

/** The last `lines` lines of a log file, for a failure message; empty when it cannot be read. */
export function logTail(file: string, lines = 8): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/**
 * Copies the built extension to `target`, which the browser loads. Chromium reads an unpacked
 * extension's files lazily, and `wxt build` empties dist/chrome-mv3 before writing it again: a
 * copy keeps the next `npm run build` from breaking a browser left open (as the e2e harness
 * does). The id comes from the manifest `key`, not the folder, so the copy has the same id.
 */
export function snapshotExtension(source: string, target: string): void {
  for (const file of ['manifest.json', 'background.js']) {
    if (!existsSync(path.join(source, file))) {
      throw new Error(`${source} has no ${file}: run \`npm run build\` first.`);
    }
  }
  const next = `${target}.next`;
  rmSync(next, { recursive: true, force: true });
  cpSync(source, next, { recursive: true });
  rmSync(target, { recursive: true, force: true });
  renameSync(next, target);
}
