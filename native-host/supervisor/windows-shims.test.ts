import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  FILESYSTEM_JS,
  NODE_EXE,
  NODEJS,
  NPM_CLI,
  NPX_CLI,
  PREFIX,
  WIN_PATH,
  fakeWinFiles,
  shimText,
  winMachine,
  type WinEntry,
} from '../testing/fake-win-files';
import { MAX_SHIM_BYTES, parseNpmShim } from './npm-shim';
import { resolveCommand, type ResolvedCommand } from './resolve-command';

// Banner: the dangerous direction is spawning something other than what the shim would start,
// or running a batch file at all (through cmd.exe, where an argument can run commands): a
// refusal costs one config edit, and every refusal here says what to write instead.

type Expected =
  | { path: string; prefixArgs: string[]; kind: 'npm-cli' | 'cmd-shim'; file: string }
  | { reason: Extract<ResolvedCommand, { ok: false }>['reason']; message: RegExp };

interface Row {
  name: string;
  command: string;
  cwd?: string;
  pathEnv?: string;
  /** Replaces or adds entries of the default machine (`undefined` removes one). */
  files?: Record<string, WinEntry | undefined>;
  machine?: { cmdShim?: string; npm?: string };
  expected: Expected;
}

const inPrefix = (...parts: string[]) => path.win32.join(PREFIX, ...parts);
const npx = path.win32.join(NODEJS, 'npx.cmd');
const npm = path.win32.join(NODEJS, 'npm.cmd');
const filesystemShim = inPrefix('mcp-server-filesystem.cmd');

const npxRow = (npmVersion: string): Row => ({
  name: `npx, as npm ${npmVersion} ships it`,
  command: 'npx',
  machine: { npm: `npm-${npmVersion}` },
  expected: { path: NODE_EXE, prefixArgs: [NPX_CLI], kind: 'npm-cli', file: npx },
});

const filesystemRow = (cmdShim: string): Row => ({
  name: `a package bin, shim by ${cmdShim}: node from PATH (none beside the shim) on the bin`,
  command: 'mcp-server-filesystem',
  machine: { cmdShim },
  expected: { path: NODE_EXE, prefixArgs: [FILESYSTEM_JS], kind: 'cmd-shim', file: filesystemShim },
});

const ROWS: Row[] = [
  npxRow('11.19.1'),
  npxRow('9.9.4'),
  {
    name: 'npm (npm exec, npm x): node on npm-cli.js',
    command: 'npm',
    expected: { path: NODE_EXE, prefixArgs: [NPM_CLI], kind: 'npm-cli', file: npm },
  },
  {
    name: 'npx by absolute path, in another case',
    command: 'c:\\program files\\NODEJS\\NPX.CMD',
    expected: {
      path: 'c:\\program files\\NODEJS\\node.exe',
      prefixArgs: ['c:\\program files\\NODEJS\\node_modules\\npm\\bin\\npx-cli.js'],
      kind: 'npm-cli',
      file: 'c:\\program files\\NODEJS\\NPX.CMD',
    },
  },
  filesystemRow('cmd-shim-3.0.3'),
  filesystemRow('cmd-shim-8.0.0'),
  filesystemRow('cmd-shim-9.0.2'),
  {
    name: 'a package bin by absolute path without extension',
    command: inPrefix('mcp-server-filesystem'),
    expected: {
      path: NODE_EXE,
      prefixArgs: [FILESYSTEM_JS],
      kind: 'cmd-shim',
      file: filesystemShim,
    },
  },
  {
    name: 'node.exe beside the shim wins over node on PATH, as in the shim',
    command: 'mcp-server-filesystem',
    files: { [inPrefix('node.exe')]: 'file' },
    expected: {
      path: inPrefix('node.exe'),
      prefixArgs: [FILESYSTEM_JS],
      kind: 'cmd-shim',
      file: filesystemShim,
    },
  },
  {
    name: 'node options from the #! line come before the script',
    command: 'node-flags',
    expected: {
      path: NODE_EXE,
      prefixArgs: [
        '--no-warnings',
        '--enable-source-maps',
        inPrefix('node_modules', 'node-flags', 'cli.js'),
      ],
      kind: 'cmd-shim',
      file: inPrefix('node-flags.cmd'),
    },
  },
  {
    name: 'a bin that is an .exe is started directly, as the shim does',
    command: 'native-tool',
    expected: {
      path: inPrefix('node_modules', 'native-tool', 'bin', 'native-tool.exe'),
      prefixArgs: [],
      kind: 'cmd-shim',
      file: inPrefix('native-tool.cmd'),
    },
  },
  {
    name: 'a project .bin shim through an absolute cwd',
    command: '.\\node_modules\\.bin\\mcp-server-filesystem',
    cwd: 'C:\\work\\app',
    files: {
      'C:\\work\\app\\node_modules\\.bin\\mcp-server-filesystem.cmd': {
        text: shimText('cmd-shim-8.0.0/mcp-server-filesystem.cmd').replace(
          '%dp0%\\node_modules\\',
          '%dp0%\\..\\',
        ),
      },
      'C:\\work\\app\\node_modules\\@modelcontextprotocol\\server-filesystem\\dist\\index.js':
        'file',
    },
    expected: {
      path: NODE_EXE,
      prefixArgs: [
        'C:\\work\\app\\node_modules\\@modelcontextprotocol\\server-filesystem\\dist\\index.js',
      ],
      kind: 'cmd-shim',
      file: 'C:\\work\\app\\node_modules\\.bin\\mcp-server-filesystem.cmd',
    },
  },
  {
    name: 'a bin without a #! line that is a script',
    command: 'no-shebang',
    expected: {
      reason: 'unsupported-shim',
      message: /opens '.*\\no-shebang\\cli\.js' directly.*set "command" to "node" and put/,
    },
  },
  {
    name: 'a bin run by python',
    command: 'py-tool',
    expected: {
      reason: 'unsupported-shim',
      message: /with 'python3', and Switchyard follows only/,
    },
  },
  {
    name: 'a hand-written batch file',
    command: '.\\start.bat',
    cwd: 'C:\\work',
    files: { 'C:\\work\\start.bat': { text: '@echo off\r\nnode "%~dp0\\server.js" %*\r\n' } },
    expected: {
      reason: 'unsupported-shim',
      message: /^'C:\\work\\start\.bat' is a batch file\. .*Set "command" to the program it starts/,
    },
  },
  {
    name: 'an npm shim that was edited',
    command: 'mcp-server-filesystem',
    files: {
      [filesystemShim]: {
        text: shimText('cmd-shim-8.0.0/mcp-server-filesystem.cmd').replace(
          '%*\r\n',
          '%* & calc\r\n',
        ),
      },
    },
    expected: {
      reason: 'unsupported-shim',
      message: /looks like an npm shim, but not one written as/,
    },
  },
  {
    name: 'a shim whose bin is gone',
    command: 'mcp-server-filesystem',
    files: { [FILESYSTEM_JS]: undefined },
    expected: {
      reason: 'not-found',
      message:
        /is an npm shim for '.*\\dist\\index\.js', which does not exist .*Reinstall the package/,
    },
  },
  {
    name: 'npx whose npx-cli.js is gone',
    command: 'npx',
    files: { [NPX_CLI]: undefined },
    expected: { reason: 'not-found', message: /npx-cli\.js', which does not exist/ },
  },
  {
    name: 'a shim that runs node from PATH, and PATH has none',
    command: 'mcp-server-filesystem',
    pathEnv: `C:\\Windows\\system32;${PREFIX}`,
    expected: {
      reason: 'not-found',
      message:
        /runs node from PATH \(there is no node\.exe beside it\): 'node' was not found on PATH \(searched: C:\\Windows\\system32, C:\\Users/,
    },
  },
  {
    name: 'a shim whose node on PATH is itself a batch file: followed no further',
    command: 'mcp-server-filesystem',
    pathEnv: `C:\\Tools;${WIN_PATH}`,
    files: { 'C:\\Tools\\node.cmd': { text: shimText('npm-11.19.1/npm.cmd') } },
    expected: {
      reason: 'unsupported-shim',
      message: /the first node there is 'C:\\Tools\\node\.cmd', which is not a program either/,
    },
  },
  {
    name: 'a shim that cannot be read',
    command: 'mcp-server-filesystem',
    files: { [filesystemShim]: { unreadable: 'EACCES' } },
    expected: { reason: 'unsupported-shim', message: /could not be read \(EACCES\)/ },
  },
  {
    name: 'a batch file too large to be a shim',
    command: 'mcp-server-filesystem',
    files: { [filesystemShim]: { text: 'REM\r\n'.repeat(MAX_SHIM_BYTES / 4) } },
    expected: { reason: 'unsupported-shim', message: /too large to be an npm shim/ },
  },
];

function machine(row: Row): Record<string, WinEntry> {
  const files = { ...winMachine(row.machine?.cmdShim, row.machine?.npm), ...row.files };
  return Object.fromEntries(
    Object.entries(files).flatMap(([p, entry]) => (entry === undefined ? [] : [[p, entry]])),
  );
}

describe('resolveCommand on win32 follows npm shims by reading them', () => {
  it.each(ROWS)('$name: $command', async (row) => {
    const fs = fakeWinFiles(machine(row));
    const result = await resolveCommand(row.command, {
      pathEnv: row.pathEnv ?? WIN_PATH,
      platform: 'win32',
      ...fs,
      ...(row.cwd === undefined ? {} : { cwd: row.cwd }),
    });
    const { expected } = row;
    if ('path' in expected) {
      expect(result).toEqual({
        ok: true,
        path: expected.path,
        shim: { file: expected.file, kind: expected.kind, prefixArgs: expected.prefixArgs },
      });
    } else {
      expect(result).toMatchObject({ ok: false, reason: expected.reason });
      if (!result.ok) expect(result.message).toMatch(expected.message);
    }
    // Nothing relative to the cwd was looked at, and only batch files were read.
    for (const p of fs.probed) expect(p).toMatch(/^([A-Za-z]:\\|\\\\[^\\])/);
    for (const p of fs.read) expect(p).toMatch(/\.(cmd|bat)$/i);
  });

  it('a program is spawned as found: no file is read', async () => {
    const fs = fakeWinFiles(winMachine());
    const result = await resolveCommand('node', { pathEnv: WIN_PATH, platform: 'win32', ...fs });
    expect(result).toEqual({ ok: true, path: NODE_EXE });
    expect(fs.read).toEqual([]);
  });

  it('off Windows, a .cmd is just a file: never read', async () => {
    const read: string[] = [];
    const result = await resolveCommand('/opt/tools/npx.cmd', {
      pathEnv: '/usr/bin',
      platform: 'linux',
      isFile: () => true,
      isExecutable: () => true,
      readFile: (p) => {
        read.push(p);
        return Promise.resolve('');
      },
    });
    expect(result).toEqual({ ok: true, path: '/opt/tools/npx.cmd' });
    expect(read).toEqual([]);
  });
});

// The npm installed with this Node: what its own shims and its cmd-shim write today must still be
// shapes the host reads, so a new npm that changes them fails here, not on a user's machine.
const npmRoot =
  process.platform === 'win32'
    ? path.join(path.dirname(process.execPath), 'node_modules', 'npm')
    : path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm');

describe.runIf(existsSync(path.join(npmRoot, 'bin', 'npx.cmd')))('the npm beside this node', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'switchyard-cmd-shim-'));
  afterAll(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  it.each(['npx', 'npm'])('its bin/%s.cmd is read as npm writes it', (cli) => {
    const text = readFileSync(path.join(npmRoot, 'bin', `${cli}.cmd`), 'utf8');
    expect(parseNpmShim(text, path.win32.join(NODEJS, `${cli}.cmd`))).toEqual({
      ok: true,
      kind: 'npm-cli',
      runs: 'node',
      nodeBeside: NODE_EXE,
      script: cli === 'npx' ? NPX_CLI : NPM_CLI,
      prefixArgs: [cli === 'npx' ? NPX_CLI : NPM_CLI],
    });
  });

  it.each([
    ['#!/usr/bin/env node\n', []],
    ['#!/usr/bin/env node --no-warnings\n', ['--no-warnings']],
  ])('its cmd-shim writes a shim read as node on the bin (%j)', async (firstLine, options) => {
    const loaded: unknown = createRequire(import.meta.url)(
      path.join(npmRoot, 'node_modules', 'cmd-shim'),
    );
    if (typeof loaded !== 'function') throw new Error('cmd-shim does not export a function');
    // Checked just above; cmd-shim has no types of its own.
    const cmdShim = loaded as (from: string, to: string) => Promise<void>;
    const prefix = mkdtempSync(path.join(scratch, 'prefix-'));
    const bin = path.join(prefix, 'node_modules', 'some-server', 'bin', 'cli.js');
    mkdirSync(path.dirname(bin), { recursive: true });
    writeFileSync(bin, firstLine);
    await cmdShim(bin, path.join(prefix, 'some-server'));
    const text = readFileSync(path.join(prefix, 'some-server.cmd'), 'utf8');
    const script = inPrefix('node_modules', 'some-server', 'bin', 'cli.js');
    expect(parseNpmShim(text, inPrefix('some-server.cmd'))).toEqual({
      ok: true,
      kind: 'cmd-shim',
      runs: 'node',
      nodeBeside: inPrefix('node.exe'),
      script,
      prefixArgs: [...options, script],
    });
  });
});
