import { describe, expect, it, test } from 'vitest';
import {
  EMPTY_ADD_SERVER_FIELDS,
  parseAddServerForm,
  parseEnvLines,
  previewArgv,
  type AddServerFields,
} from './add-server-form';

// The dangerous direction is a server added with a launch the user did not read: arguments that
// merge or split differently from the preview, an environment value that was trimmed or
// expanded, a half-quoted line that is added anyway. Refusing a form is loud and gets fixed.

function form(fields: Partial<AddServerFields>): AddServerFields {
  return { ...EMPTY_ADD_SERVER_FIELDS, ...fields };
}

describe('the command field', () => {
  it('splits the issue example into four arguments, nothing expanded', () => {
    const result = parseAddServerForm(
      form({
        name: 'files',
        commandLine: 'npx -y @modelcontextprotocol/server-filesystem "/Users/me/My Documents"',
      }),
    );
    expect(result).toEqual({
      ok: true,
      params: {
        name: 'files',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/My Documents'],
      },
    });
  });

  it('keeps $VAR, ~ and globs as written', () => {
    const result = parseAddServerForm(form({ name: 'x', commandLine: 'run $HOME ~ *.js' }));
    expect(result.ok && result.params.args).toEqual(['$HOME', '~', '*.js']);
  });

  it("shows the parser's error for an unbalanced quote", () => {
    const result = parseAddServerForm(form({ name: 'x', commandLine: 'node "server.js' }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.commandLine).toMatch(/double quote at position 6/);
    expect(previewArgv('node "server.js')).toMatchObject({ ok: false });
  });

  test.each([
    ['empty', ''],
    ['only spaces', '   '],
    ['an empty program', '"" arg'],
  ])('refuses %s', (_, commandLine) => {
    const result = parseAddServerForm(form({ name: 'x', commandLine }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.commandLine).toMatch(/program to run/);
  });

  it('previews the argv as chips', () => {
    expect(previewArgv(`node 'a b' ""`)).toEqual({ ok: true, argv: ['node', 'a b', ''] });
  });
});

describe('the name field', () => {
  test.each([
    ['empty', '', /Give the server a name/],
    ['surrounding space', ' x', /start or end with a space/],
    ['too long', 'a'.repeat(65), /at most 64/],
    ['an invisible character', 'git\u200bhub', /invisible/],
    ['reserved', '__proto__', /reserved/],
  ])('refuses %s', (_, name, message) => {
    const result = parseAddServerForm(form({ name, commandLine: 'node s.js' }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.name).toMatch(message);
  });

  it('refuses a name already configured', () => {
    const result = parseAddServerForm(form({ name: 'github', commandLine: 'x' }), ['github']);
    expect(result.ok ? undefined : result.errors.name).toMatch(/already exists/);
  });

  it('allows 64 characters of Unicode', () => {
    expect(parseAddServerForm(form({ name: 'é'.repeat(64), commandLine: 'x' })).ok).toBe(true);
  });
});

describe('the environment field', () => {
  it('keeps values exactly as typed, including = and ${VAR}', () => {
    expect(parseEnvLines('TOKEN=${GITHUB_TOKEN}\n\n# a comment\n URL = a=b \r\nEMPTY=')).toEqual({
      ok: true,
      env: [
        ['TOKEN', '${GITHUB_TOKEN}'],
        ['URL', ' a=b '],
        ['EMPTY', ''],
      ],
    });
  });

  test.each([
    ['no =', 'A=1\nTOKEN', /Line 2 has no '='/],
    ['no name', '=value', /no name before/],
    ['a space in the name', 'MY KEY=1', /spaces or invisible/],
    ['a duplicate', 'A=1\nA=2', /Line 2 sets A a second time/],
    ['a reserved name', '__proto__=1', /reserved/],
    ['a NUL', 'A=a\u0000b', /NUL/],
  ])('refuses %s', (_, text, message) => {
    const result = parseEnvLines(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
  });

  it('sends env and cwd only when given', () => {
    const result = parseAddServerForm(
      form({ name: 'x', commandLine: 'node s.js', env: 'A=1', cwd: ' /srv/app ' }),
    );
    expect(result).toEqual({
      ok: true,
      params: { name: 'x', command: 'node', args: ['s.js'], env: { A: '1' }, cwd: '/srv/app' },
    });
  });

  it('reports every bad field at once', () => {
    const result = parseAddServerForm(form({ name: '', commandLine: "'", env: 'oops' }));
    expect(result.ok ? [] : Object.keys(result.errors).sort()).toEqual([
      'commandLine',
      'env',
      'name',
    ]);
  });
});
