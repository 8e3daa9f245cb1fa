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

/**
 * reg.exe by absolute path: a bare name would be searched for in the current folder first on
 * Windows, where someone else's `reg.exe` could be waiting.
 */
export function regExePath(env: Readonly<Record<string, string | undefined>>): string {
  const root = env['SystemRoot'] ?? env['SYSTEMROOT'] ?? 'C:\\Windows';
  return `${root.replace(/[\\/]+$/, '')}\\System32\\${REG_EXE}`;
}

/** The production RegistryRunner: `execFile`, no shell, 10 s timeout. */
export const runReg: RegistryRunner = (argv) => {
  // Not import(): the bundle runs from V8's code cache, where import() is not wired (0033).
  const { execFile } = process.getBuiltinModule('node:child_process');
  return new Promise((resolve) => {
    execFile(
      regExePath(process.env),
      [...argv],
      { windowsHide: true, timeout: 10_000, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr: stderr || (error?.message ?? '') });
      },
    );
  });
};

/** The manifest path a key's default value holds, or null when the key or value is absent. */
export async function queryDefault(run: RegistryRunner, key: string): Promise<string | null> {
  const result = await run(regQueryArgv(key));
  return result.code === 0 ? parseRegQueryDefault(result.stdout) : null;
}
