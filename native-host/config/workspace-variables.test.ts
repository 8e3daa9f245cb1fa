import path from 'node:path';
import { describe, expect, it, test } from 'vitest';
import { MAX_ARG_CHARS } from './schema';
import { loadWorkspace } from './workspace';
import {
  HOME,
  MCP,
  ROOT,
  VSCODE,
  files,
  load,
  mcp,
  vscode,
} from '../../test/support/workspace-files';

// Dangerous direction: anything a repository wrote reaching the launcher as `user` provenance, a
// trust claim being honoured, or a hostile file throwing out of loadWorkspace (which would stop
// the user's own servers). An entry skipped with a warning is the safe failure.

describe('loadWorkspace: variables', () => {
  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    [
      'workspaceFolder in command',
      { command: '${workspaceFolder}/bin/server' },
      { command: `${ROOT}/bin/server` },
    ],
    [
      'all five in args',
      {
        command: 'x',
        args: [
          '${workspaceFolder}',
          '${workspaceFolderBasename}',
          '${userHome}',
          '${pathSeparator}',
          '${/}',
        ],
      },
      { args: [ROOT, 'repo', HOME, '/', '/'] },
    ],
    [
      'several in one arg',
      { command: 'x', args: ['--root=${workspaceFolder}${/}src'] },
      { args: [`--root=${ROOT}/src`] },
    ],
    ['cwd', { command: 'x', cwd: '${workspaceFolder}/sub' }, { cwd: `${ROOT}/sub` }],
    ['relative cwd', { command: 'x', cwd: 'packages/server' }, { cwd: `${ROOT}/packages/server` }],
    ['dot cwd', { command: 'x', cwd: '.' }, { cwd: ROOT }],
    ['cwd that goes up and back in', { command: 'x', cwd: 'a/../b' }, { cwd: `${ROOT}/b` }],
    [
      'absolute cwd elsewhere (shown as is)',
      { command: 'x', cwd: '/srv/data' },
      { cwd: '/srv/data' },
    ],
    ['userHome cwd', { command: 'x', cwd: '${userHome}/work' }, { cwd: `${HOME}/work` }],
    [
      'env: predefined substituted, env references left for env.ts',
      {
        command: 'x',
        env: {
          A: '${workspaceFolder}/data',
          B: '${env:TOKEN}',
          C: '${TOKEN:-none}',
          D: '$${workspaceFolder}',
        },
      },
      {
        env: {
          A: `${ROOT}/data`,
          B: '${env:TOKEN}',
          C: '${TOKEN:-none}',
          D: '$${workspaceFolder}',
        },
      },
    ],
    [
      'text that only looks like a variable',
      { command: 'x', args: ['$workspaceFolder', '${', '$${x'] },
      { args: ['$workspaceFolder', '${', '$${x'] },
    ],
  ])('substitutes variables: %s', async (_label, entry, expected) => {
    const config = await load({ [VSCODE]: vscode({ s: entry }) });
    expect(config.warnings).toEqual([]);
    expect(config.servers[0]).toMatchObject(expected);
  });

  it('substitutes in one pass: a root that contains a variable is not expanded again', async () => {
    const root = '/home/u/${userHome}';
    const config = await load(
      { [path.join(root, '.mcp.json')]: mcp({ s: { command: '${workspaceFolder}/x' } }) },
      root,
    );
    expect(config.servers[0]?.command).toBe('/home/u/${userHome}/x');
  });

  test.each<[string, Record<string, unknown>, string, RegExp]>([
    [
      'input in env',
      { command: 'x', env: { T: '${input:token}' } },
      'servers.s.env.T',
      /prompted inputs \(\$\{input:token\}\) are not supported/,
    ],
    [
      'input in args',
      { command: 'x', args: ['${input:script}'] },
      'servers.s.args[0]',
      /prompted inputs/,
    ],
    ['input in command', { command: '${input:bin}' }, 'servers.s.command', /prompted inputs/],
    [
      'command: in args',
      { command: 'x', args: ['${command:foo.bar}'] },
      'servers.s.args[0]',
      /needs VS Code/,
    ],
    [
      'config: in env',
      { command: 'x', env: { P: '${config:http.proxy}' } },
      'servers.s.env.P',
      /needs VS Code/,
    ],
    [
      'env: in command',
      { command: '${env:HOME}/bin/x' },
      'servers.s.command',
      /\$\{env:HOME\} is not supported in command, args or cwd/,
    ],
    [
      'bare ${VAR} in args',
      { command: 'sh', args: ['-c', '${HOME}/x'] },
      'servers.s.args[1]',
      /\$\{HOME\} is not supported/,
    ],
    [
      'multi-root workspaceFolder in cwd',
      { command: 'x', cwd: '${workspaceFolder:api}' },
      'servers.s.cwd',
      /\$\{workspaceFolder:api\} is not supported/,
    ],
    [
      'an odd variable name is not echoed',
      { command: 'x', args: ['${\u202eevil}'] },
      'servers.s.args[0]',
      /^(?!.*\u202e).*a \$\{\.\.\.\} variable is not supported/,
    ],
    [
      'envFile',
      { command: 'x', envFile: '${workspaceFolder}/.env' },
      'servers.s.envFile',
      /"envFile" is not supported/,
    ],
    [
      'cwd above the root',
      { command: 'x', cwd: '../..' },
      'servers.s.cwd',
      /cwd resolves to "\/home", outside the workspace folder/,
    ],
    [
      'cwd above the root through the variable',
      { command: 'x', cwd: '${workspaceFolder}/../other' },
      'servers.s.cwd',
      /outside the workspace folder/,
    ],
  ])('skips an entry: %s', async (_label, entry, key, message) => {
    const config = await load({ [VSCODE]: vscode({ s: entry, kept: { command: 'y' } }) });
    expect(config.servers.map((s) => s.name)).toEqual(['kept']);
    expect(config.warnings).toHaveLength(1);
    expect(config.warnings[0]?.key).toBe(key);
    expect(config.warnings[0]?.message).toMatch(message);
    expect(config.warnings[0]?.message).toMatch(/Server "s" was skipped$/);
  });

  it('keeps a cwd folder whose name starts with two dots', async () => {
    const config = await load({ [MCP]: mcp({ s: { command: 'x', cwd: '..cache' } }) });
    expect(config.servers[0]?.cwd).toBe(`${ROOT}/..cache`);
  });

  it('skips ${userHome} when the home folder is unknown', async () => {
    const config = await loadWorkspace(
      ROOT,
      files({ [MCP]: mcp({ s: { command: '${userHome}/x' } }) }),
      {
        homedir: 'not/absolute',
      },
    );
    expect(config.servers).toEqual([]);
    expect(config.warnings[0]?.message).toMatch(
      /\$\{userHome\} cannot be used here: the home folder is unknown/,
    );
  });

  it('does not put a root containing "$" into env, where env.ts would read it as a reference', async () => {
    const root = '/home/u/$${x}';
    const config = await load(
      {
        [path.join(root, '.mcp.json')]: mcp({
          inArgs: { command: 'x', args: ['${workspaceFolder}'] },
          inEnv: { command: 'x', env: { R: '${workspaceFolder}' } },
        }),
      },
      root,
    );
    expect(config.servers.map((s) => [s.name, s.args])).toEqual([['inArgs', [root]]]);
    expect(config.warnings[0]?.message).toMatch(
      /\$\{workspaceFolder\} cannot be used here: its value contains '\$'/,
    );
  });

  it('checks lengths again after substitution', async () => {
    const root = `/home/u/${'r'.repeat(100)}`;
    const arg = '${workspaceFolder}'.repeat(400); // 7,200 characters; 40,000 once substituted
    const config = await load(
      { [path.join(root, '.mcp.json')]: mcp({ s: { command: 'x', args: [arg] } }) },
      root,
    );
    expect(config.servers).toEqual([]);
    expect(config.warnings[0]?.message).toMatch(
      new RegExp(`with variables substituted, this is longer than ${MAX_ARG_CHARS} characters`),
    );
  });
});
