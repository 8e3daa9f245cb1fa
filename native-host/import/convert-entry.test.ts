import { describe, expect, it, test } from 'vitest';
import { convertStdio, type EntryOutcome, type StdioFields } from './convert-entry';
import type { ImportedLocalEntry } from './types';
import type { Dialect } from './variables';

/**
 * The client-independent half of conversion. Dangerous direction: converting something whose
 * meaning changes once Switchyard runs it (a variable no one expands, a relative path that now
 * points elsewhere). Refusing with a reason is the safe failure. Remote entries:
 * convert-remote.test.ts.
 */

const literal: Dialect = { label: 'Claude Desktop', launchVariables: 'literal', predefined: [] };
const expands: Dialect = {
  label: 'Cursor',
  launchVariables: 'expands',
  envReferences: 'prefixed',
  predefined: ['userHome', 'pathSeparator', '/'],
  inputs: new Map([['token', 'GitHub token']]),
};
const bare: Dialect = {
  label: 'Claude Code',
  launchVariables: 'expands',
  envReferences: 'bare',
  predefined: [],
};
const linux = { homedir: '/home/alex', platform: 'linux' as const };
const windows = { homedir: 'C:\\Users\\alex', platform: 'win32' as const };

function ok(outcome: EntryOutcome<ImportedLocalEntry>) {
  if (!outcome.ok) throw new Error(`expected a conversion, got: ${outcome.reason}`);
  return outcome.entry;
}

function reason(outcome: EntryOutcome): string {
  if (outcome.ok) throw new Error(`expected a refusal, got ${JSON.stringify(outcome.entry)}`);
  return outcome.reason;
}

describe('variables', () => {
  const fields = (over: Partial<StdioFields>): StdioFields => ({ command: 'node', ...over });

  test.each<[string, Dialect, StdioFields, unknown]>([
    // Literal clients pass `${...}` through; Switchyard passes args through too: same meaning.
    ['literal args kept', literal, fields({ args: ['${HOME}/x'] }), { args: ['${HOME}/x'] }],
    ['literal env kept', literal, fields({ env: { A: '${B}' } }), { env: { A: '${B}' } }],
    [
      'userHome in args',
      expands,
      fields({ args: ['${userHome}/s.js'] }),
      { args: ['/home/alex/s.js'] },
    ],
    ['pathSeparator', expands, fields({ args: ['a${pathSeparator}b${/}c'] }), { args: ['a/b/c'] }],
    ['env:X kept in env', expands, fields({ env: { K: '${env:K}' } }), { env: { K: '${env:K}' } }],
    [
      'X kept in env (bare)',
      bare,
      fields({ env: { K: 'Bearer ${TOKEN}' } }),
      { env: { K: 'Bearer ${TOKEN}' } },
    ],
    [
      'default kept in env (bare)',
      bare,
      fields({ env: { K: '${K:-x y}' } }),
      { env: { K: '${K:-x y}' } },
    ],
    [
      'userHome in env',
      expands,
      fields({ env: { D: '${userHome}/d' } }),
      { env: { D: '/home/alex/d' } },
    ],
    ['userHome in cwd', expands, fields({ cwd: '${userHome}/w' }), { cwd: '/home/alex/w' }],
    [
      'escaped stays',
      expands,
      fields({ env: { K: '$${notavar}' } }),
      { env: { K: '$${notavar}' } },
    ],
  ])('%s', (_, dialect, input, expected) => {
    expect(ok(convertStdio(input, dialect, linux))).toMatchObject(expected as object);
  });

  test.each<[string, StdioFields, string]>([
    [
      'env:X in args',
      fields({ args: ['--key', '${env:KEY}'] }),
      'argument 2 uses ${env:KEY}, and Switchyard expands variables only in "env" values',
    ],
    ['X in command', fields({ command: '${BIN}/server' }), '"command" uses ${BIN}'],
    [
      'workspaceFolder in args',
      fields({ args: ['${workspaceFolder}/x'] }),
      '${workspaceFolder}, which depends on the folder open in Cursor',
    ],
    [
      'workspaceFolder in env',
      fields({ env: { R: '${workspaceFolder}' } }),
      'env R uses ${workspaceFolder}',
    ],
    [
      'input in env',
      fields({ env: { T: '${input:token}' } }),
      'a value Cursor asks you for ("GitHub token")',
    ],
    [
      'unknown input',
      fields({ env: { T: '${input:other}' } }),
      'uses ${input:other}, a value Cursor asks you for.',
    ],
    [
      'command: in args',
      fields({ args: ['${command:pick}'] }),
      '${command:pick}, which only Cursor can work out',
    ],
    [
      'file: in env',
      fields({ env: { T: '${file:/k}' } }),
      '${file:/k}, which only Cursor can work out',
    ],
    [
      'unknown in env',
      fields({ env: { T: '${a b}' } }),
      'a ${...} variable, which Switchyard does not know',
    ],
    // Cursor would not read TOKEN from the environment; Switchyard would: another meaning.
    [
      'bare X in env',
      fields({ env: { T: '${TOKEN}' } }),
      'env T uses ${TOKEN}, which Cursor does not read from the environment (that would be ${env:TOKEN})',
    ],
    [
      'bare default in env',
      fields({ env: { T: '${T:-x}' } }),
      'env T uses ${T:-x}, which Cursor does not read from the environment (that would be ${env:T})',
    ],
  ])('refuses %s', (_, input, message) => {
    expect(reason(convertStdio(input, expands, linux))).toContain(message);
  });

  test.each<[string, StdioFields, string]>([
    [
      'X in args',
      fields({ args: ['${DATABASE_URL}'] }),
      'argument 1 uses ${DATABASE_URL}, and Switchyard expands variables only in "env" values',
    ],
    ['env:X in env', fields({ env: { R: '${env:R}' } }), 'env R uses ${env:R}'],
  ])('refuses for Claude Code: %s', (_, input, message) => {
    expect(reason(convertStdio(input, bare, linux))).toContain(message);
  });
});

describe('paths', () => {
  test.each<[string, typeof linux | typeof windows, StdioFields, unknown]>([
    ['~ in command', linux, { command: '~/bin/s' }, { command: '/home/alex/bin/s' }],
    ['~ in cwd', linux, { command: 's', cwd: '~/w' }, { cwd: '/home/alex/w' }],
    [
      '~ on Windows',
      windows,
      { command: '~\\bin\\s.exe' },
      { command: 'C:\\Users\\alex\\bin\\s.exe' },
    ],
    ['absolute cwd', windows, { command: 's', cwd: 'D:\\work' }, { cwd: 'D:\\work' }],
    [
      'relative cwd in a project',
      linux,
      { command: 's', cwd: 'tools', projectDir: '/src/app' },
      { cwd: '/src/app/tools' },
    ],
    [
      'relative arg in a project',
      linux,
      { command: 'node', args: ['../shared/s.js'], projectDir: '/src/app' },
      { cwd: '/src/app' },
    ],
    [
      'bare command in a project',
      linux,
      { command: 'npx', args: ['-y', 'x'], projectDir: '/src/app' },
      {},
    ],
  ])('%s', (_, context, input, expected) => {
    const converted = ok(convertStdio(input, literal, context));
    expect(converted).toMatchObject(expected as object);
    if (Object.keys(expected as object).length === 0) expect(converted.cwd).toBeUndefined();
  });

  test.each<[string, typeof linux | typeof windows, StdioFields]>([
    ['relative cwd', linux, { command: 's', cwd: 'work' }],
    ['drive-relative cwd on Windows', windows, { command: 's', cwd: 'C:work' }],
    ['rooted cwd on Windows', windows, { command: 's', cwd: '\\work' }],
  ])('refuses %s', (_, context, input) => {
    expect(reason(convertStdio(input, literal, context))).toContain('needs an absolute folder');
  });
});

describe('fields', () => {
  it('turns VS Code number env values into text and drops null ones with a note', () => {
    const outcome = convertStdio({ command: 'x', env: { N: 2, U: null } }, literal, linux);
    expect(ok(outcome).env).toEqual({ N: '2' });
    expect(outcome.ok && outcome.notes).toEqual([
      'env U is unset in the source; Switchyard passes only what an entry sets',
    ]);
  });

  it('keeps a "__proto__" env name as a name, and the loader schema then refuses it', () => {
    const env: Record<string, unknown> = JSON.parse('{"__proto__": "x"}') as Record<
      string,
      unknown
    >;
    expect(reason(convertStdio({ command: 'x', env }, literal, linux))).toContain('__proto__');
  });

  test.each<[string, StdioFields, string]>([
    ['no command', { command: undefined }, 'no "command"'],
    ['empty command', { command: '' }, 'command cannot be empty'],
    [
      'an argument too long',
      { command: 'x', args: ['a'.repeat(40_000)] },
      'args[0]: an argument can have at most',
    ],
    ['env name with =', { command: 'x', env: { 'A=B': 'c' } }, "an env name cannot contain '='"],
    ['env boolean', { command: 'x', env: { A: true } }, 'env A must be a string'],
    ['cwd number', { command: 'x', cwd: 3 }, '"cwd" must be a string'],
  ])('refuses %s', (_, input, message) => {
    expect(reason(convertStdio(input, literal, linux))).toContain(message);
  });

  it('marks a switched-off entry', () => {
    const outcome = convertStdio({ command: 'x', disabled: true }, literal, linux);
    expect(ok(outcome).disabled).toBe(true);
  });
});

describe('env that changes what the program loads', () => {
  // Banner: an imported server is approved by the import and never shows a launch card, whose
  // warning about these variables (launch-gate.ts) the preview must carry instead. Missing it is
  // the dangerous direction; values of other variables (often secrets) are never shown.
  it('notes each such variable with its value, and no other value', () => {
    const outcome = convertStdio(
      {
        command: 'node',
        args: ['server.js'],
        env: { NODE_OPTIONS: '--require /tmp/x.js', LD_PRELOAD: '/tmp/hook.so', TOKEN: 's3cret' },
      },
      literal,
      linux,
    );
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(outcome.notes).toEqual([
      'env NODE_OPTIONS is "--require /tmp/x.js": it changes what the program loads and runs, and an imported server starts without asking',
      'env LD_PRELOAD is "/tmp/hook.so": it changes what the program loads and runs, and an imported server starts without asking',
    ]);
    expect(outcome.notes.join(' ')).not.toContain('s3cret');
  });
});
