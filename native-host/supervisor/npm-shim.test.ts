import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNpmShim, type ShimPlan } from './npm-shim';

// Banner: the dangerous direction is recognizing a file whose text runs something other than
// what the host derives from it (an edited shim, an extra line, a `%VAR%` cmd.exe would expand):
// the host would spawn, and the card show, a program the file does not start, or miss one it
// does. Refusing a real shim costs the user one config edit, with the message saying which.

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'npm-shims');
const fixture = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8');

const PREFIX = 'C:\\Users\\ada\\AppData\\Roaming\\npm';
const NODEJS = 'C:\\Program Files\\nodejs';
const inPrefix = (...parts: string[]) => path.win32.join(PREFIX, ...parts);

type Expected =
  | { runs: 'node'; kind: 'npm-cli' | 'cmd-shim'; prefixArgs: string[] }
  | { runs: 'program'; program: string }
  | { refused: RegExp };

function expectPlan(plan: ShimPlan, expected: Expected, dir: string): void {
  if ('refused' in expected) {
    expect(plan.ok).toBe(false);
    if (!plan.ok) expect(plan.message).toMatch(expected.refused);
    return;
  }
  if (expected.runs === 'program') {
    expect(plan).toEqual({
      ok: true,
      kind: 'cmd-shim',
      runs: 'program',
      program: expected.program,
    });
    return;
  }
  expect(plan).toEqual({
    ok: true,
    kind: expected.kind,
    runs: 'node',
    nodeBeside: path.win32.join(dir, 'node.exe'),
    script: expected.prefixArgs.at(-1),
    prefixArgs: expected.prefixArgs,
  });
}

const npmCliRows = ['npm-9.9.4', 'npm-11.19.1'].flatMap((npm) =>
  (['npx', 'npm'] as const).map((cli) => ({
    name: `${npm}/${cli}.cmd`,
    file: `${npm}/${cli}.cmd`,
    expected: {
      runs: 'node' as const,
      kind: 'npm-cli' as const,
      prefixArgs: [path.win32.join(NODEJS, 'node_modules', 'npm', 'bin', `${cli}-cli.js`)],
    },
  })),
);

const cmdShimRows = ['cmd-shim-3.0.3', 'cmd-shim-8.0.0', 'cmd-shim-9.0.2'].flatMap((version) => {
  const rows: Array<{ shim: string; expected: Expected }> = [
    {
      shim: 'mcp-server-filesystem',
      expected: {
        runs: 'node',
        kind: 'cmd-shim',
        prefixArgs: [
          inPrefix(
            'node_modules',
            '@modelcontextprotocol',
            'server-filesystem',
            'dist',
            'index.js',
          ),
        ],
      },
    },
    {
      shim: 'node-flags',
      expected: {
        runs: 'node',
        kind: 'cmd-shim',
        prefixArgs: [
          '--no-warnings',
          '--enable-source-maps',
          inPrefix('node_modules', 'node-flags', 'cli.js'),
        ],
      },
    },
    {
      shim: 'native-tool',
      expected: {
        runs: 'program',
        program: inPrefix('node_modules', 'native-tool', 'bin', 'native-tool.exe'),
      },
    },
    {
      shim: 'no-shebang',
      expected: {
        refused: /opens '.*\\no-shebang\\cli\.js' directly .*set "command" to "node"/,
      },
    },
    {
      shim: 'py-tool',
      expected: { refused: /\\tool\.py' with 'python3'.*only shims that run node/ },
    },
    { shim: 'sh-tool', expected: { refused: /with '\/bin\/sh'/ } },
    { shim: 'abs-node', expected: { refused: /with '\/usr\/local\/bin\/node'/ } },
    {
      shim: 'env-vars',
      // cmd-shim 3.x predates `env -S`: its shim runs a program named -S.
      expected: {
        refused: version === 'cmd-shim-3.0.3' ? /with '-S'/ : /sets NODE_ENV before running node/,
      },
    },
  ];
  return rows.map((row) => ({
    name: `${version}/${row.shim}.cmd`,
    file: `${version}/${row.shim}.cmd`,
    expected: row.expected,
  }));
});

describe('parseNpmShim over the shims npm writes', () => {
  it.each(npmCliRows)('$name', ({ file, expected }) => {
    const shim = path.win32.join(NODEJS, path.basename(file));
    expectPlan(parseNpmShim(fixture(file), shim), expected, NODEJS);
  });

  it.each(cmdShimRows)('$name', ({ file, expected }) => {
    const shim = inPrefix(path.basename(file));
    expectPlan(parseNpmShim(fixture(file), shim), expected, PREFIX);
  });

  it('reads a project .bin shim relative to its own folder', () => {
    // cmd-shim in node_modules\.bin writes the target as ..\<package>\...
    const text = fixture('cmd-shim-8.0.0/mcp-server-filesystem.cmd').replace(
      '%dp0%\\node_modules\\@modelcontextprotocol',
      '%dp0%\\..\\@modelcontextprotocol',
    );
    const shim = 'C:\\work\\app\\node_modules\\.bin\\mcp-server-filesystem.cmd';
    const script =
      'C:\\work\\app\\node_modules\\@modelcontextprotocol\\server-filesystem\\dist\\index.js';
    expect(parseNpmShim(text, shim)).toMatchObject({ ok: true, runs: 'node', script });
  });
});

const NODE_SHIM = 'cmd-shim-8.0.0/mcp-server-filesystem.cmd';
const FLAGS_SHIM = 'cmd-shim-8.0.0/node-flags.cmd';
const NPX = 'npm-11.19.1/npx.cmd';

// Each row is a real shim with one edit; every one must be refused.
const TAMPERED: Array<{
  name: string;
  file: string;
  edit: (text: string) => string;
  message: RegExp;
}> = [
  {
    name: 'LF line ends instead of CRLF',
    file: NODE_SHIM,
    edit: (t) => t.replaceAll('\r\n', '\n'),
    message: /looks like an npm shim/,
  },
  {
    name: 'a line appended',
    file: NODE_SHIM,
    edit: (t) => `${t}calc.exe\r\n`,
    message: /looks like an npm shim/,
  },
  {
    name: 'a line inserted before the program runs',
    file: NODE_SHIM,
    edit: (t) => t.replace('CALL :find_dp0\r\n', 'CALL :find_dp0\r\nstart calc.exe\r\n'),
    message: /looks like an npm shim/,
  },
  {
    name: 'the fallback program differs from the one checked',
    file: NODE_SHIM,
    edit: (t) => t.replace('SET "_prog=node"', 'SET "_prog=evil"'),
    message: /looks like an npm shim/,
  },
  {
    name: 'a variable in the script path (cmd.exe would expand it)',
    file: NODE_SHIM,
    edit: (t) => t.replace('\\dist\\index.js', '\\%EVIL%\\index.js'),
    message: /looks like an npm shim/,
  },
  {
    name: 'a quote in the script path',
    file: NODE_SHIM,
    edit: (t) => t.replace('\\dist\\index.js', '\\dist" "x.js'),
    message: /looks like an npm shim/,
  },
  {
    name: 'a script on another drive',
    file: NODE_SHIM,
    edit: (t) => t.replace('%dp0%\\node_modules', '%dp0%\\D:\\node_modules'),
    message: /looks like an npm shim/,
  },
  {
    name: 'a command separator among the node options',
    file: FLAGS_SHIM,
    edit: (t) => t.replace('--no-warnings', '--no-warnings&calc'),
    message: /passes node the options --no-warnings&calc --enable-source-maps, which only cmd\.exe/,
  },
  {
    name: 'npx.cmd with its fallback edited',
    file: NPX,
    edit: (t) => t.replace('SET "NODE_EXE=node"', 'SET "NODE_EXE=evil"'),
    message: /looks like an npm shim/,
  },
  {
    name: 'npx.cmd running another script',
    file: NPX,
    edit: (t) => t.replace('"%NODE_EXE%" "%NPX_CLI_JS%" %*', '"%NODE_EXE%" "%NPM_PREFIX_JS%" %*'),
    message: /looks like an npm shim/,
  },
  {
    name: 'an empty file',
    file: NPX,
    edit: () => '',
    message: /^'.*' is a batch file\. .*Set "command"/,
  },
];

describe('parseNpmShim refuses a shim that is not exactly as npm writes it', () => {
  it.each(TAMPERED)('$name', ({ file, edit, message }) => {
    const text = edit(fixture(file));
    expect(text).not.toBe(fixture(file));
    const plan = parseNpmShim(text, inPrefix(path.basename(file)));
    expect(plan.ok).toBe(false);
    if (!plan.ok) expect(plan.message).toMatch(message);
  });

  it.each([
    ['a hand-written launcher', '@echo off\r\nnode "%~dp0\\server.js" %*\r\n'],
    ['a wrapper that calls npx', '@npx -y @modelcontextprotocol/server-memory\r\n'],
  ])('%s: says to write the program and its script instead', (_name, text) => {
    const plan = parseNpmShim(text, 'C:\\tools\\start.bat');
    expect(plan.ok).toBe(false);
    if (plan.ok) return;
    expect(plan.message).toMatch(/^'C:\\tools\\start\.bat' is a batch file\. /);
    expect(plan.message).toMatch(/CVE-2024-27980/);
    expect(plan.message).toMatch(/Set "command" to the program it starts .* in "args"\.$/);
    expect(plan.message).not.toMatch(/npm shim/);
  });
});
