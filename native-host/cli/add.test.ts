import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, test } from 'vitest';
import { FileLockTimeoutError } from '../shared/file-lock';
import { parseAddArguments, withTrustStore } from './add';
import type { CliIo } from './io';

// The dangerous direction: an option read as part of the command (or the command's own flags
// read as ours), which would approve something other than what the user typed.

const CWD = path.resolve('/home/me/project');

const accepted: ReadonlyArray<readonly [string, readonly string[], unknown, boolean]> = [
  [
    'the issue example',
    [
      'files',
      '--',
      'npx',
      '-y',
      '@modelcontextprotocol/server-filesystem',
      '/Users/me/My Documents',
    ],
    {
      name: 'files',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/My Documents'],
    },
    false,
  ],
  [
    "the command's own flags after -- are its own, even ours",
    ['m', '--', 'node', 'server.js', '--env', 'X=1', '--replace', '--'],
    { name: 'm', command: 'node', args: ['server.js', '--env', 'X=1', '--replace', '--'] },
    false,
  ],
  [
    'env pairs, inline and separate; a value may contain =',
    ['m', '--env', 'TOKEN=${TOKEN}', '--env=URL=https://x/?a=b', '--', 'node'],
    { name: 'm', command: 'node', args: [], env: { TOKEN: '${TOKEN}', URL: 'https://x/?a=b' } },
    false,
  ],
  [
    'an empty env value',
    ['m', '--env', 'EMPTY=', '--', 'node'],
    { name: 'm', command: 'node', args: [], env: { EMPTY: '' } },
    false,
  ],
  [
    'a relative cwd is made absolute',
    ['m', '--cwd', 'sub', '--', 'node'],
    { name: 'm', command: 'node', args: [], cwd: path.join(CWD, 'sub') },
    false,
  ],
  [
    'a relative command path is made absolute; a bare name is left for PATH',
    ['m', '--', './bin/server', './arg'],
    { name: 'm', command: path.join(CWD, 'bin/server'), args: ['./arg'] },
    false,
  ],
  [
    'options before or after the name; --replace',
    ['--replace', 'm', '--cwd=/srv', '--', '/usr/bin/x'],
    { name: 'm', command: '/usr/bin/x', args: [], cwd: path.resolve('/srv') },
    true,
  ],
  [
    'a remote server: --url with headers and a type',
    ['lin', '--url', 'https://mcp.linear.app/mcp', '--type', 'sse', '--header', 'X-A=${TOKEN}'],
    {
      name: 'lin',
      url: 'https://mcp.linear.app/mcp',
      transport: 'sse',
      headers: { 'X-A': '${TOKEN}' },
    },
    false,
  ],
  [
    'a remote server: --url alone, --replace',
    ['lin', '--url=https://x.example/mcp', '--replace'],
    { name: 'lin', url: 'https://x.example/mcp' },
    true,
  ],
];

describe('parseAddArguments', () => {
  test.each(accepted)('%s', (_label, argv, server, replace) => {
    expect(parseAddArguments(argv, CWD)).toEqual({ ok: true, server, replace });
  });
});

const refused: ReadonlyArray<readonly [string, readonly string[], RegExp]> = [
  ['no name', ['--', 'node'], /name/],
  ['no --', ['m', 'node', 'server.js'], /put '--' before the command/],
  ['nothing after --', ['m', '--'], /give the command/],
  ['an empty command', ['m', '--', ''], /give the command/],
  ['--env without =', ['m', '--env', 'TOKEN', '--', 'node'], /KEY=VALUE/],
  ['--env with an empty key', ['m', '--env', '=x', '--', 'node'], /KEY=VALUE/],
  ['--env at the end', ['m', '--env'], /KEY=VALUE/],
  ['the same env key twice', ['m', '--env', 'A=1', '--env', 'A=2', '--', 'node'], /twice/],
  ['--cwd without a folder', ['m', '--cwd', '', '--', 'node'], /--cwd/],
  ['an unknown option', ['m', '--yes', '--', 'node'], /unknown option '--yes'/],
  ['--replace with a value', ['m', '--replace=no', '--', 'node'], /unknown option/],
  ['--url and a command', ['m', '--url', 'https://x', '--', 'node'], /not both/],
  ['--url with --env', ['m', '--url', 'https://x', '--env', 'A=1'], /local server/],
  ['--header without --url', ['m', '--header', 'A=1', '--', 'node'], /give its --url/],
  ['--type other than http or sse', ['m', '--url', 'https://x', '--type', 'ws'], /--type/],
  ['a header twice', ['m', '--url', 'https://x', '--header', 'a=1', '--header', 'A=2'], /twice/],
];

describe('parseAddArguments refuses', () => {
  test.each(refused)('%s', (_label, argv, message) => {
    const parsed = parseAddArguments(argv, CWD);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(message);
  });
});

describe('withTrustStore', () => {
  it('prints what to do when config.json or trust.json stays locked, not a stack trace', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sy-add-'));
    const err: string[] = [];
    const io: CliIo = {
      out: () => undefined,
      err: (text) => err.push(text),
      env: { SWITCHYARD_HOME: home, PATH: path.dirname(process.execPath) },
      platform: process.platform,
    };
    const lock = path.join(home, 'config.json.lock');
    const code = await withTrustStore(io, 'remove', () =>
      Promise.reject(new FileLockTimeoutError(lock, `${lock} has been held ... Try again.`)),
    );
    expect(code).toBe(1);
    expect(err.join('')).toBe(`switchyard remove: ${lock} has been held ... Try again.\n`);
  });
});
