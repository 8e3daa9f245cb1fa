import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** An environment as Node exposes it. */
export type EnvLike = Readonly<Record<string, string | undefined>>;

// What the stores' tools need: the session bus and runtime folder (Secret Service), a home and
// a user (the keychain, the credential vault), a display for an unlock prompt, a locale.
const TOOL_ENV = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'DBUS_SESSION_BUS_ADDRESS',
  'XDG_RUNTIME_DIR',
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'SystemRoot',
  'SYSTEMROOT',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'TEMP',
  'TMP',
] as const;

/** The few variables a store's tool gets: never the host's whole environment. */
export function toolEnv(env: EnvLike): Record<string, string> {
  const result: Record<string, string> = {};
  for (const name of TOOL_ENV) {
    const value = env[name];
    if (value !== undefined) result[name] = value;
  }
  return result;
}

/**
 * The absolute path of the first executable `name` in `extraDirs` or the absolute entries of
 * PATH (never the current folder or a relative entry, as for servers), or undefined.
 */
export function findTool(
  name: string,
  env: EnvLike,
  extraDirs: readonly string[],
  isExecutable: (file: string) => boolean = defaultIsExecutable,
): string | undefined {
  const fromPath = (env['PATH'] ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d));
  for (const dir of [...extraDirs, ...fromPath]) {
    const file = path.join(dir, name);
    if (isExecutable(file)) return file;
  }
  return undefined;
}

function defaultIsExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
