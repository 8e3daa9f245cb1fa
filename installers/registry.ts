import {
  unknownWindowsRootMessage as windowsRootMessage,
  windowsRoot,
} from '../native-host/shared/windows-root';

/**
 * Windows registry operations as `reg.exe` argument vectors. They are run with `execFile`
 * (never a shell), so a manifest path with spaces, `&`, `^` or `%` reaches reg.exe as one
 * argument, untouched. The key's default value (`/ve`) is the manifest's full path, as Chrome's
 * and MDN's native messaging guides specify; `/f` overwrites without asking, which is what makes
 * a re-install idempotent.
 */

export const REG_EXE = 'reg.exe';

export function regAddArgv(key: string, manifestPath: string): string[] {
  return ['add', key, '/ve', '/t', 'REG_SZ', '/d', manifestPath, '/f'];
}

export function regDeleteArgv(key: string): string[] {
  return ['delete', key, '/f'];
}

export function regQueryArgv(key: string): string[] {
  return ['query', key, '/ve'];
}

/**
 * The default value from `reg query <key> /ve` output, or null when there is none. The output
 * looks like:
 *
 *     HKEY_CURRENT_USER\Software\Chromium\NativeMessagingHosts\com.switchyard.host
 *         (Default)    REG_SZ    C:\Users\me\AppData\Roaming\Switchyard\host\chromium\com.switchyard.host.json
 *
 * The name column is localized on some Windows versions ("(Standard)", "(Par défaut)"), so the
 * line is recognized by its type column; the value is everything after it, spaces included.
 */
export function parseRegQueryDefault(output: string): string | null {
  for (const line of output.split(/\r?\n/)) {
    const match = /^\s+\S.*?\s{2,}REG_(?:SZ|EXPAND_SZ)(?:\s{2,}(.*))?$/.exec(line);
    if (match) return (match[1] ?? '').trimEnd();
  }
  return null;
}

export interface RegResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs reg.exe with an argument vector. Injected, so tests on any OS can fake the registry. */
export type RegistryRunner = (argv: readonly string[]) => Promise<RegResult>;

/** What a RegistryRunner reports when reg.exe did not run at all (not found, timed out). */
export const REG_NOT_RUN = -1;

/**
 * reg.exe by absolute path: a bare name would be searched for in the current folder first on
 * Windows, where someone else's `reg.exe` could be waiting. Null when Windows' folder is unknown.
 */
export function regExePath(env: Readonly<Record<string, string | undefined>>): string | null {
  const root = windowsRoot(env);
  return root === null ? null : `${root}\\System32\\${REG_EXE}`;
}

/** Why reg.exe was not run: SystemRoot does not name Windows' folder. */
export function unknownWindowsRootMessage(
  env: Readonly<Record<string, string | undefined>>,
): string {
  return windowsRootMessage(REG_EXE, env);
}

/** What runs for one reg.exe call: a program by absolute path and its argument vector. */
export interface RegCommand {
  readonly file: string;
  readonly args: readonly string[];
  /** The vector is one command line already (cmd.exe's `/s /c "..."`): Node must not quote it. */
  readonly verbatim: boolean;
}

/**
 * How one reg.exe call is run. reg.exe prints a value in the console's code page (850, 932,
 * ...), not UTF-8, so `reg query` of a manifest under `C:\Users\Jérôme` came back with
 * replacement characters: never equal to the manifest path, so uninstall left the key as
 * "another install's" and doctor reported it wrong. A query therefore runs in cmd.exe after
 * `chcp 65001` (cmd.exe and chcp.com by absolute path, no AutoRun), in its own hidden console;
 * its words are fixed names (`query`, a key of ours, `/ve`), checked to hold nothing cmd
 * interprets. Everything else (`add` carries the manifest path) runs reg.exe directly.
 */
export function regCommand(root: string, argv: readonly string[]): RegCommand {
  const reg = `${root}\\System32\\${REG_EXE}`;
  // Node passes a verbatim command line's program name unquoted: no space in the root then.
  const plain = !root.includes(' ') && argv.every((word) => /^[\w\\ ./-]+$/.test(word));
  if (argv[0] !== 'query' || !plain) return { file: reg, args: [...argv], verbatim: false };
  const words = [reg, ...argv].map((word) => `"${word}"`).join(' ');
  const chcp = `"${root}\\System32\\chcp.com" 65001 >nul`;
  return {
    file: `${root}\\System32\\cmd.exe`,
    args: ['/d', '/s', '/c', `"${chcp} & ${words}"`],
    verbatim: true,
  };
}

/** The part of `child_process.execFile` the runner uses, injectable for tests. */
export type ExecFileLike = (
  file: string,
  args: readonly string[],
  options: {
    readonly windowsHide: true;
    readonly timeout: number;
    readonly encoding: 'utf8';
    readonly windowsVerbatimArguments: boolean;
  },
  callback: (
    error: {
      code?: number | string | null;
      signal?: string | null;
      killed?: boolean;
      message: string;
    } | null,
    stdout: string,
    stderr: string,
  ) => void,
) => unknown;

/** A RegistryRunner over `execFile`: no shell of the user's, 10 s timeout. */
export function makeRegRunner(
  env: Readonly<Record<string, string | undefined>>,
  execFile: () => ExecFileLike,
): RegistryRunner {
  return (argv) => {
    const root = windowsRoot(env);
    if (root === null) {
      return Promise.resolve({
        code: REG_NOT_RUN,
        stdout: '',
        stderr: unknownWindowsRootMessage(env),
      });
    }
    const command = regCommand(root, argv);
    return new Promise((resolve) => {
      execFile()(
        command.file,
        command.args,
        {
          windowsHide: true,
          timeout: 10_000,
          encoding: 'utf8',
          windowsVerbatimArguments: command.verbatim,
        },
        (error, stdout, stderr) => {
          // A string code (ENOENT, EACCES) or a kill (the timeout): reg.exe did not answer.
          const code =
            error === null
              ? 0
              : typeof error.code === 'number' && error.signal == null && error.killed !== true
                ? error.code
                : REG_NOT_RUN;
          const why = error === null ? '' : `${command.file}: ${error.message}`;
          resolve({ code, stdout, stderr: stderr || why });
        },
      );
    });
  };
}

/** The production RegistryRunner. */
export const runReg: RegistryRunner = makeRegRunner(
  process.env,
  // Not import(): the bundle runs from V8's code cache, where import() is not wired (0033).
  () => process.getBuiltinModule('node:child_process').execFile,
);

/** reg.exe could not be run, so whether a key is there is unknown (not "absent"). */
export class RegistryUnavailableError extends Error {}

/** The manifest path a key's default value holds, or null when the key or value is absent. */
export async function queryDefault(run: RegistryRunner, key: string): Promise<string | null> {
  const result = await run(regQueryArgv(key));
  if (result.code === REG_NOT_RUN) {
    throw new RegistryUnavailableError(
      `could not read ${key}: ${result.stderr.trim() || 'reg.exe did not run'}`,
    );
  }
  return result.code === 0 ? parseRegQueryDefault(result.stdout) : null;
}
