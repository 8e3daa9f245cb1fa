/**
 * Windows' own folder, from `SystemRoot` (or `windir`), only when it is a plain absolute drive
 * path (`C:\Windows`): an empty, relative or `..` value would make `<root>\System32\reg.exe` (or
 * PowerShell) a file in the current folder or drive, which anyone who put one there would have
 * run. Null when neither variable holds such a path. Used for every Windows program the host and
 * the installer run by path.
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

/** Why a Windows program was not run: SystemRoot does not name Windows' folder. */
export function unknownWindowsRootMessage(
  program: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  const got = env['SystemRoot'] ?? env['SYSTEMROOT'];
  return `cannot find ${program}: SystemRoot ${got === undefined ? 'is not set' : `is ${JSON.stringify(got)}`}, not the absolute path of your Windows folder. Open a new terminal (or run 'set SystemRoot=C:\\Windows' with your Windows folder) and run the command again.`;
}
