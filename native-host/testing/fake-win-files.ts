import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A Windows machine with Node and npm installed the usual way, for command resolution tests
 * (decision 0014): Node in Program Files with npm's own npx.cmd and npm.cmd beside it, and
 * global packages in the npm prefix under AppData with the shims npm's cmd-shim wrote. The shim
 * texts are the real files in `supervisor/fixtures/npm-shims/`.
 */

export const NODEJS = 'C:\\Program Files\\nodejs';
export const PREFIX = 'C:\\Users\\ada\\AppData\\Roaming\\npm';
/** System folders, then Node's, then the npm prefix: the order a Node install leaves PATH in. */
export const WIN_PATH = ['C:\\Windows\\system32', NODEJS, PREFIX].join(';');

export const NODE_EXE = path.win32.join(NODEJS, 'node.exe');
export const NPX_CLI = path.win32.join(NODEJS, 'node_modules', 'npm', 'bin', 'npx-cli.js');
export const NPM_CLI = path.win32.join(NODEJS, 'node_modules', 'npm', 'bin', 'npm-cli.js');
export const FILESYSTEM_JS = path.win32.join(
  PREFIX,
  'node_modules',
  '@modelcontextprotocol',
  'server-filesystem',
  'dist',
  'index.js',
);

const FIXTURES = path.join(import.meta.dirname, '..', 'supervisor', 'fixtures', 'npm-shims');

/** The text of a fixture shim, e.g. `shimText('npm-11.19.1/npx.cmd')`. */
export function shimText(name: string): string {
  return readFileSync(path.join(FIXTURES, name), 'utf8');
}

/** A file: a program or script (its text never read), a text file, or one that cannot be read. */
export type WinEntry = 'file' | { text: string } | { unreadable: string };

export function winMachine(
  cmdShim = 'cmd-shim-8.0.0',
  npm = 'npm-11.19.1',
): Record<string, WinEntry> {
  const shim = (name: string) => ({ text: shimText(`${cmdShim}/${name}.cmd`) });
  return {
    [NODE_EXE]: 'file',
    [path.win32.join(NODEJS, 'npx.cmd')]: { text: shimText(`${npm}/npx.cmd`) },
    [path.win32.join(NODEJS, 'npm.cmd')]: { text: shimText(`${npm}/npm.cmd`) },
    [NPX_CLI]: 'file',
    [NPM_CLI]: 'file',
    [path.win32.join(PREFIX, 'mcp-server-filesystem.cmd')]: shim('mcp-server-filesystem'),
    [FILESYSTEM_JS]: 'file',
    [path.win32.join(PREFIX, 'node-flags.cmd')]: shim('node-flags'),
    [path.win32.join(PREFIX, 'node_modules', 'node-flags', 'cli.js')]: 'file',
    [path.win32.join(PREFIX, 'native-tool.cmd')]: shim('native-tool'),
    [path.win32.join(PREFIX, 'node_modules', 'native-tool', 'bin', 'native-tool.exe')]: 'file',
    [path.win32.join(PREFIX, 'no-shebang.cmd')]: shim('no-shebang'),
    [path.win32.join(PREFIX, 'node_modules', 'no-shebang', 'cli.js')]: 'file',
    [path.win32.join(PREFIX, 'py-tool.cmd')]: shim('py-tool'),
    [path.win32.join(PREFIX, 'node_modules', 'py-tool', 'tool.py')]: 'file',
  };
}

/**
 * The file probes of `resolveCommand` over `files`, case-insensitive as NTFS is. Records every
 * path probed and every file read, so a test can check nothing relative was looked at and that
 * only batch files were read.
 */
export function fakeWinFiles(files: Readonly<Record<string, WinEntry>>) {
  const table = new Map(Object.entries(files).map(([p, e]) => [p.toLowerCase(), e]));
  const probed: string[] = [];
  const read: string[] = [];
  return {
    probed,
    read,
    isFile: (p: string): boolean => {
      probed.push(p);
      return table.has(p.toLowerCase());
    },
    isExecutable: (): boolean => true,
    readFile: (p: string): Promise<string> => {
      read.push(p);
      const entry = table.get(p.toLowerCase());
      if (entry === undefined || entry === 'file') {
        return Promise.reject(Object.assign(new Error(`cannot read ${p}`), { code: 'ENOENT' }));
      }
      if ('unreadable' in entry) {
        return Promise.reject(
          Object.assign(new Error(`cannot read ${p}`), { code: entry.unreadable }),
        );
      }
      return Promise.resolve(entry.text);
    },
  };
}
