import path from 'node:path';
import type { ShimKind } from '../shared/server-spec';

/**
 * Reads a Windows batch shim that npm wrote, as text, to find the program it would start
 * (decision 0014). Node refuses to spawn a `.cmd` without a shell (CVE-2024-27980) and the host
 * never runs one (cmd.exe parses arguments a second time), so for the shims npm writes, which
 * only start node on a script, the host runs node on that script itself.
 *
 * Recognized, byte for byte (CRLF included; anything else is refused):
 * - npm's own `npx.cmd` and `npm.cmd` (`kind: 'npm-cli'`), as npm 6 to 12 ship them: node.exe
 *   beside the shim, else `node` from PATH, on `node_modules\npm\bin\{npx,npm}-cli.js` beside it.
 *   Those shims first ask npm for its global prefix (by running node) and prefer an npm installed
 *   there; the host runs nothing to find out, so it runs the npm that ships beside the shim.
 * - what cmd-shim (npm's bin linker) writes for a package bin (`kind: 'cmd-shim'`), in its three
 *   shapes since cmd-shim 3.0.1: a bin whose `#!` line runs `node` (node.exe beside the shim,
 *   else `node` from PATH, with the `#!` line's options, on the bin's script), or a bin without a
 *   `#!` line that is an `.exe` (started directly, as the shim does).
 *
 * Refused with what to write instead: a bin run by another interpreter (python, sh, an absolute
 * node path that exists only on Unix), a `#!` line that sets variables or passes options that
 * only cmd.exe could split, a bin without a `#!` line that is not an `.exe` (the shim hands it to
 * the file association, not to node), and every other batch file. Pure: the caller checks that
 * the files named exist.
 */
export type ShimPlan =
  | {
      readonly ok: true;
      readonly kind: ShimKind;
      readonly runs: 'node';
      /** The node.exe the shim prefers; when it does not exist, the shim runs `node` from PATH. */
      readonly nodeBeside: string;
      /** The script, absolute. */
      readonly script: string;
      /** What goes before the entry's own args: the `#!` line's node options, then the script. */
      readonly prefixArgs: readonly string[];
    }
  | {
      readonly ok: true;
      readonly kind: 'cmd-shim';
      readonly runs: 'program';
      readonly program: string;
    }
  | { readonly ok: false; readonly message: string };

/** Shims are a few hundred bytes; anything this large is not one, and is not read further. */
export const MAX_SHIM_BYTES = 16_384;

// Node options from a `#!` line are pasted into a cmd.exe command line by the shim: only tokens
// that cmd.exe and the C runtime pass through unchanged can be split without running cmd.exe.
const PLAIN_ARG = /^[A-Za-z0-9_@+=:,./-]+$/;

export function parseNpmShim(text: string, file: string): ShimPlan {
  const dir = path.win32.dirname(file);
  const cli = NPM_CLI_SHIMS.get(text);
  if (cli !== undefined) {
    const script = path.win32.join(dir, 'node_modules', 'npm', 'bin', `${cli}-cli.js`);
    return node('npm-cli', dir, script, []);
  }
  for (const shape of CMD_SHIM_SHAPES) {
    const groups = shape.exec(text)?.groups;
    if (groups === undefined) continue;
    const target = groups['target'] ?? '';
    if (/^[\\/]|:/.test(target)) break; // a drive or root: not a path relative to the shim
    const script = path.win32.join(dir, target);
    const prog = groups['prog'];
    if (prog === undefined) return direct(file, script);
    const vars = groups['vars'] ?? '';
    if (vars !== '') return refuse(variablesMessage(file, vars, script));
    if (prog !== 'node') return refuse(interpreterMessage(file, prog, script));
    const args = (groups['args'] ?? '').split(/[ \t]+/).filter((a) => a !== '');
    if (!args.every((a) => PLAIN_ARG.test(a))) return refuse(optionsMessage(file, args, script));
    return node('cmd-shim', dir, script, args);
  }
  return refuse(unknownMessage(file, text));
}

function node(kind: ShimKind, dir: string, script: string, options: string[]): ShimPlan {
  const nodeBeside = path.win32.join(dir, 'node.exe');
  return { ok: true, kind, runs: 'node', nodeBeside, script, prefixArgs: [...options, script] };
}

function direct(file: string, target: string): ShimPlan {
  const ext = path.win32.extname(target).toLowerCase();
  if (ext === '.exe' || ext === '.com') {
    return { ok: true, kind: 'cmd-shim', runs: 'program', program: target };
  }
  return refuse(
    `'${file}' is an npm shim that opens '${target}' directly (the file has no #! line), which ` +
      'Windows does with the program registered for its file type, not with node. If it is a ' +
      `Node script, set "command" to "node" and put "${target}" first in "args".`,
  );
}

function refuse(message: string): ShimPlan {
  return { ok: false, message };
}

function interpreterMessage(file: string, prog: string, script: string): string {
  return (
    `'${file}' is an npm shim that runs '${script}' with '${prog}', and Switchyard follows only ` +
    `shims that run node. Set "command" to the Windows program for '${prog}' (an .exe, by ` +
    `absolute path or by a name on PATH) and put "${script}" first in "args".`
  );
}

function variablesMessage(file: string, vars: string, script: string): string {
  const names = vars.split('\r\n').flatMap((line) => /^@SET ([^=]+)=/.exec(line)?.[1] ?? []);
  return (
    `'${file}' is an npm shim that sets ${names.join(', ')} before running node, and Switchyard ` +
    `does not take a shim's environment. Set "command" to "node", put "${script}" first in ` +
    `"args", and the variables in "env".`
  );
}

function optionsMessage(file: string, options: readonly string[], script: string): string {
  return (
    `'${file}' is an npm shim that passes node the options ${options.join(' ')}, which only ` +
    `cmd.exe could split. Set "command" to "node" and "args" to those options followed by ` +
    `"${script}".`
  );
}

function unknownMessage(file: string, text: string): string {
  // What only npm's shims say; a hand-written batch file using %~dp0 is not one of them.
  const npmish = /Created by npm|%dp0%|"%_prog%"/.test(text);
  return (
    `'${file}' is a batch file. Windows runs batch files only through cmd.exe, which parses the ` +
    'arguments again (one could run commands, CVE-2024-27980), so Switchyard never runs one. ' +
    (npmish
      ? 'It looks like an npm shim, but not one written as npm writes them (edited, or from an ' +
        'npm Switchyard does not know); reinstalling the package with a current npm rewrites ' +
        'it. Or set '
      : 'Set ') +
    '"command" to the program it starts (an .exe, or an interpreter such as node or python) ' +
    'and put the script and its arguments in "args".'
  );
}

// npm's own bin/npx.cmd and bin/npm.cmd: npm 6-9 ask `npm-cli.js prefix -g` for the global
// prefix, npm 10-12 ask `npm-prefix.js` (fixtures/npm-shims/). No variable part at all.
function npmCliShim(cli: 'npm' | 'npx', probe: 'npm-cli' | 'npm-prefix'): string {
  const CLI = cli.toUpperCase();
  const bin = '%~dp0\\node_modules\\npm\\bin';
  const own = `SET "${CLI}_CLI_JS=${bin}\\${cli}-cli.js"`;
  const lines = [
    ":: Created by npm, please don't edit manually.",
    '@ECHO OFF',
    '',
    'SETLOCAL',
    '',
    'SET "NODE_EXE=%~dp0\\node.exe"',
    'IF NOT EXIST "%NODE_EXE%" (',
    '  SET "NODE_EXE=node"',
    ')',
    '',
    ...(probe === 'npm-prefix'
      ? [`SET "NPM_PREFIX_JS=${bin}\\npm-prefix.js"`, own]
      : [`SET "NPM_CLI_JS=${bin}\\npm-cli.js"`, ...(cli === 'npm' ? [] : [own])]),
    probe === 'npm-prefix'
      ? `FOR /F "delims=" %%F IN ('CALL "%NODE_EXE%" "%NPM_PREFIX_JS%"') DO (`
      : `FOR /F "delims=" %%F IN ('CALL "%NODE_EXE%" "%NPM_CLI_JS%" prefix -g') DO (`,
    `  SET "NPM_PREFIX_${CLI}_CLI_JS=%%F\\node_modules\\npm\\bin\\${cli}-cli.js"`,
    ')',
    `IF EXIST "%NPM_PREFIX_${CLI}_CLI_JS%" (`,
    `  SET "${CLI}_CLI_JS=%NPM_PREFIX_${CLI}_CLI_JS%"`,
    ')',
    '',
    `"%NODE_EXE%" "%${CLI}_CLI_JS%" %*`,
  ];
  return crlf(lines);
}

const NPM_CLI_SHIMS = new Map<string, 'npm' | 'npx'>(
  (['npm', 'npx'] as const).flatMap((cli) =>
    (['npm-cli', 'npm-prefix'] as const).map((probe) => [npmCliShim(cli, probe), cli] as const),
  ),
);

// cmd-shim's .cmd, as its writeShim_ builds it: a head, `@SET` lines from `env VAR=x` in the `#!`
// line, then the program. <PROG> is the `#!` line's program (`node`), <ARGS> its options, <TARGET>
// the bin relative to the shim. `%` and `"` never match a part: cmd.exe would expand or end them.
const HEAD_FOOT = ['@ECHO off', 'SETLOCAL', 'CALL :find_dp0']; // cmd-shim 3.0.1-4.0.2
const FOOT = ['ENDLOCAL', 'EXIT /b %errorlevel%', ':find_dp0', 'SET dp0=%~dp0', 'EXIT /b'];
// cmd-shim 4.1.0 and later
const HEAD_GOTO = [
  '@ECHO off',
  'GOTO start',
  ':find_dp0',
  'SET dp0=%~dp0',
  'EXIT /b',
  ':start',
  'SETLOCAL',
  'CALL :find_dp0',
];
const pick = (pathextInElse: boolean) => [
  'IF EXIST "%dp0%\\<PROG>.exe" (',
  '  SET "_prog=%dp0%\\<PROG>.exe"',
  ') ELSE (',
  '  SET "_prog=<PROG>"',
  ...(pathextInElse ? ['  SET PATHEXT=%PATHEXT:;.JS;=;%'] : []),
  ')',
  '',
];
const RUN = '"%_prog%" <ARGS> "%dp0%\\<TARGET>" %*';
const END_LOCAL = 'endLocal & goto #_undefined_# 2>NUL || title %COMSPEC% & ';
const DIRECT = '"%dp0%\\<TARGET>"   %*';

const PARTS: Readonly<Record<string, string>> = {
  '<ARGS>': '(?<args>[^"%\\r\\n]*)',
  '<TARGET>': '(?<target>[^"%\\r\\n]+)',
};

const CMD_SHIM_SHAPES: readonly RegExp[] = [
  shape(HEAD_FOOT, [...pick(true), RUN, ...FOOT]),
  shape(HEAD_GOTO, [...pick(true), END_LOCAL + RUN]),
  shape(HEAD_GOTO, [...pick(false), `${END_LOCAL}set PATHEXT=%PATHEXT:;.JS;=;% & ${RUN}`]),
  shape([...HEAD_FOOT, DIRECT, ...FOOT]),
  shape([...HEAD_GOTO, DIRECT]),
];

/** An anchored pattern for `head`, then (when `rest` is given) `@SET` lines, then `rest`. */
function shape(head: readonly string[], rest?: readonly string[]): RegExp {
  // The program's name appears three times; the second and third must repeat the first.
  let progSeen = false;
  const part = (token: string): string => {
    if (token !== '<PROG>') return PARTS[token] ?? token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const group = progSeen ? '\\k<prog>' : '(?<prog>[^"%\\r\\n]+)';
    progSeen = true;
    return group;
  };
  const lineSource = (line: string): string =>
    `${line
      .split(/(<PROG>|<ARGS>|<TARGET>)/)
      .map(part)
      .join('')}\\r\\n`;
  const source = (lines: readonly string[]): string => lines.map(lineSource).join('');
  const start = source(head);
  const vars = rest === undefined ? '' : `(?<vars>(?:@SET [^\\r\\n]*\\r\\n)*)\\r\\n${source(rest)}`;
  return new RegExp(`^${start}${vars}$`);
}

function crlf(lines: readonly string[]): string {
  return lines.map((line) => `${line}\r\n`).join('');
}
