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
 * Windows' own folder, from `SystemRoot` (or `windir`), only when it is a plain absolute drive
 * path (`C:\Windows`): an empty, relative or `..` value would make `<root>\System32\reg.exe`
 * a file in the current folder or drive, which anyone who put a `reg.exe` there would have run.
 * Null when neither variable holds such a path.
 */
export function windowsRoot(env: Readonly<Record<string, string | undefined>>): string | null {
  for (const name of ['SystemRoot', 'SYSTEMROOT', 'windir', 'WINDIR']) {
    const value = env[name];
    if (value === undefined || !/^[A-Za-z]:\\[\w .()\\-]*$/.test(value)) continue;
    if (value.split('\\').some((segment) => segment === '.' || segment === '..')) continue;
    return value.replace(/\\+$/, '');
  }
  return null;
}

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
  const got = env['SystemRoot'] ?? env['SYSTEMROOT'];
  return `cannot find reg.exe: SystemRoot ${got === undefined ? 'is not set' : `is ${JSON.stringify(got)}`}, not the absolute path of your Windows folder. Open a new terminal (or run 'set SystemRoot=C:\\Windows' with your Windows folder) and run the command again.`;
}

/** The production RegistryRunner: `execFile`, no shell, 10 s timeout. */
export const runReg: RegistryRunner = (argv) => {
  const exe = regExePath(process.env);
  if (exe === null) {
    return Promise.resolve({
      code: REG_NOT_RUN,
      stdout: '',
      stderr: unknownWindowsRootMessage(process.env),
    });
  }
  // Not import(): the bundle runs from V8's code cache, where import() is not wired (0033).
  const { execFile } = process.getBuiltinModule('node:child_process');
  return new Promise((resolve) => {
    execFile(
      exe,
      [...argv],
      { windowsHide: true, timeout: 10_000, encoding: 'utf8' },
      (error, stdout, stderr) => {
        // A string code (ENOENT, EACCES) or a kill (the timeout): reg.exe did not answer.
        const code =
          error === null
            ? 0
            : typeof error.code === 'number' && error.signal == null && error.killed !== true
              ? error.code
              : REG_NOT_RUN;
        const why = error === null ? '' : `${exe}: ${error.message}`;
        resolve({ code, stdout, stderr: stderr || why });
      },
    );
  });
};

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
