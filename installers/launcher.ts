import { HOST_ENV, HOST_NODE_FLAGS } from '../native-host/shared/node-flags';

/**
 * The launcher the host manifest points at. A browser started from the desktop has no shell PATH
 * (nvm, volta, fnm and Homebrew installs of node are not found) and runs the manifest's `path`
 * with no arguments of ours, so the launcher names everything absolutely: the node binary that
 * ran the installer (`process.execPath`), the host's V8 flags, the copied bundle, the `host`
 * subcommand, and Switchyard's home folder; then it passes on whatever the browser adds (the
 * caller's origin; on Windows also `--parent-window=<n>`; Firefox: the manifest path and the
 * extension id).
 */

export interface LauncherInput {
  /** Absolute path of the node binary. */
  readonly node: string;
  /** Absolute path of the host bundle (switchyard.cjs). */
  readonly bundle: string;
  /** Switchyard's home folder, pinned so the browser's host reads the same state as the CLI. */
  readonly home: string;
  readonly version: string;
  readonly nodeFlags?: readonly string[];
  /** Variables set for the host (POSIX only: the Windows launcher sets none, see
   * `hostEnvFor`); default HOST_ENV. Names are sh identifiers, never SWITCHYARD_HOME. */
  readonly env?: Readonly<Record<string, string>>;
}

export type LauncherResult =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string };

/**
 * Quotes `value` as one POSIX sh word: single quotes keep every byte literal (`$`, backticks,
 * `\`, `"`, newlines, unicode); a single quote itself is closed, escaped and reopened: `'\''`.
 */
export function shQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

const SH_MARKER = '# switchyard-launcher v1';

/** The POSIX `sh` launcher (mode 0755). Fails only on a NUL byte, which no path can hold. */
export function posixLauncher(input: LauncherInput): LauncherResult {
  const values = [input.node, input.bundle, input.home];
  if (values.some((v) => v.includes('\0')))
    return { ok: false, message: 'a path contains a NUL byte' };
  const argv = [input.node, ...(input.nodeFlags ?? HOST_NODE_FLAGS), input.bundle, 'host'];
  const env = Object.entries(input.env ?? HOST_ENV);
  if (env.some(([name, value]) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || value.includes('\0')))
    return { ok: false, message: 'an environment variable for the host is not a sh name=value' };
  // The home is pinned above, and doctor and uninstall read it from that line: nothing may
  // override it further down.
  if (env.some(([name]) => name === 'SWITCHYARD_HOME'))
    return { ok: false, message: 'SWITCHYARD_HOME is set by the launcher from the home folder' };
  const text = [
    '#!/bin/sh',
    SH_MARKER,
    `# Written by 'switchyard install' ${sanitizeComment(input.version)}; the browser runs this file.`,
    '# It starts the Switchyard host with the node recorded at install time. Re-run',
    "# 'switchyard install' to update it, 'switchyard doctor' to check it.",
    `SWITCHYARD_HOME=${shQuote(input.home)}`,
    'export SWITCHYARD_HOME',
    ...env.flatMap(([name, value]) => [`${name}=${shQuote(value)}`, `export ${name}`]),
    `exec ${argv.map(shQuote).join(' ')} "$@"`,
    '',
  ].join('\n');
  return { ok: true, text };
}

/**
 * Quotes `value` for a `.cmd` file, inside double quotes. There, `&`, `^`, `|`, `<`, `>`, `(`,
 * `)` and spaces are literal; `%` still expands, so it is doubled (`%%` is a literal `%` in a
 * batch file). `!` is literal because the launcher disables delayed expansion. A `"` would end
 * the quoting and a line break would end the command: both are refused (neither can appear in a
 * Windows path anyway).
 */
export function cmdQuote(
  value: string,
  what: string,
): { ok: true; quoted: string } | { ok: false; message: string } {
  if (value.includes('"')) {
    return {
      ok: false,
      message: `${what} contains a double quote (${value}), which a .cmd launcher cannot carry. Move it to a folder without '"' in its name, or set SWITCHYARD_HOME to one, and run 'switchyard install' again.`,
    };
  }
  if (/[\r\n\0]/.test(value)) {
    return {
      ok: false,
      message: `${what} contains a line break or NUL byte, which a .cmd launcher cannot carry. Move it to a folder with a plain name and run 'switchyard install' again.`,
    };
  }
  return { ok: true, quoted: `"${value.replaceAll('%', '%%')}"` };
}

const CMD_MARKER = 'rem switchyard-launcher v1';

/**
 * The Windows `.cmd` launcher. Chrome starts a host through `cmd.exe /c`, so a batch file is the
 * way to pass arguments. A path with characters outside ASCII switches the batch file to UTF-8
 * (`chcp 65001`) before the line that uses it: cmd decodes each line when it reaches it.
 */
export function windowsLauncher(input: LauncherInput): LauncherResult {
  const node = cmdQuote(input.node, 'The node path');
  if (!node.ok) return node;
  const bundle = cmdQuote(input.bundle, 'The host bundle path');
  if (!bundle.ok) return bundle;
  const home = cmdQuote(`SWITCHYARD_HOME=${input.home}`, 'The Switchyard home folder');
  if (!home.ok) return home;
  const flags = (input.nodeFlags ?? HOST_NODE_FLAGS).map((f) => cmdQuote(f, 'A node flag'));
  const quotedFlags: string[] = [];
  for (const f of flags) {
    if (!f.ok) return f;
    quotedFlags.push(f.quoted);
  }
  const ascii = /^[\x20-\x7e]*$/;
  const utf8 = ![input.node, input.bundle, input.home].every((v) => ascii.test(v));
  const lines = [
    '@echo off',
    CMD_MARKER,
    `rem Written by 'switchyard install' ${sanitizeComment(input.version)}; the browser runs this file.`,
    'rem It starts the Switchyard host with the node recorded at install time. Re-run',
    "rem 'switchyard install' to update it, 'switchyard doctor' to check it.",
    'setlocal DisableDelayedExpansion',
    ...(utf8 ? ['chcp 65001 >nul'] : []),
    `set ${home.quoted}`,
    `${node.quoted} ${quotedFlags.join(' ')} ${bundle.quoted} host %*`,
    '',
  ];
  return { ok: true, text: lines.join('\r\n') };
}

export function launcherText(
  platform: 'linux' | 'darwin' | 'win32',
  input: LauncherInput,
): LauncherResult {
  return platform === 'win32' ? windowsLauncher(input) : posixLauncher(input);
}

export interface ParsedLauncher {
  readonly node: string;
  readonly bundle: string;
  readonly home: string;
  readonly flags: readonly string[];
}

/**
 * Reads back what a launcher written by this module runs (for `switchyard doctor`), or null when
 * the file is not one of ours or was edited beyond recognition.
 */
export function parseLauncher(
  text: string,
  platform: 'linux' | 'darwin' | 'win32',
): ParsedLauncher | null {
  return platform === 'win32' ? parseCmdLauncher(text) : parseShLauncher(text);
}

function parseShLauncher(text: string): ParsedLauncher | null {
  if (!text.startsWith(`#!/bin/sh\n${SH_MARKER}\n`)) return null;
  const home = /\nSWITCHYARD_HOME=('(?:[^']|'\\'')*')\n/.exec(text)?.[1];
  const exec = /\nexec ((?:'(?:[^']|'\\'')*' )+)"\$@"\n/.exec(text)?.[1];
  if (home === undefined || exec === undefined) return null;
  const words = [...exec.matchAll(/'((?:[^']|'\\'')*)' /g)].map((m) =>
    (m[1] ?? '').replaceAll("'\\''", "'"),
  );
  const homeValue = home.slice(1, -1).replaceAll("'\\''", "'");
  return fromWords(words, homeValue);
}

function parseCmdLauncher(text: string): ParsedLauncher | null {
  const lines = text.split('\r\n');
  if (lines[0] !== '@echo off' || lines[1] !== CMD_MARKER) return null;
  const home = lines.find((l) => l.startsWith('set "SWITCHYARD_HOME='));
  const run = lines.find((l) => l.startsWith('"') && l.endsWith(' host %*'));
  if (home === undefined || run === undefined) return null;
  const unquote = (q: string) => q.slice(1, -1).replaceAll('%%', '%');
  const homeValue = unquote(home.slice('set '.length)).slice('SWITCHYARD_HOME='.length);
  const words = [...run.slice(0, -' %*'.length).matchAll(/"([^"]*)"|(\S+)/g)].map((m) =>
    m[1] !== undefined ? m[1].replaceAll('%%', '%') : (m[2] ?? ''),
  );
  return fromWords(words, homeValue);
}

/** `[node, ...flags, bundle, 'host']` back into its parts. */
function fromWords(words: readonly string[], home: string): ParsedLauncher | null {
  if (words.length < 3 || words[words.length - 1] !== 'host') return null;
  const node = words[0];
  const bundle = words[words.length - 2];
  if (node === undefined || bundle === undefined) return null;
  return { node, bundle, home, flags: words.slice(1, -2) };
}

/** Versions come from package.json; keep a comment line a comment whatever they hold. */
function sanitizeComment(value: string): string {
  return value.replace(/[^\w.+-]/g, '?');
}
