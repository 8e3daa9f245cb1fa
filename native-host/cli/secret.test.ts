import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { CliIo } from './io';
import { parseSecretArgs, secret } from './secret';
import { valueFromStdin, type SecretInput } from './secret-input';

// Dangerous direction: a value accepted from the argv (ps and shell history show it).
describe('parseSecretArgs', () => {
  test.each([
    [['set', 'GITHUB_TOKEN'], { ok: true, op: 'set', name: 'GITHUB_TOKEN' }],
    [['delete', '_x'], { ok: true, op: 'delete', name: '_x' }],
    [['list'], { ok: true, op: 'list', json: false }],
    [['list', '--json'], { ok: true, op: 'list', json: true }],
    [
      ['set', 'T=v'],
      { ok: false, error: expect.stringMatching(/on stdin, not on the command line/) as unknown },
    ],
    [
      ['set', 'T', 'v'],
      { ok: false, error: expect.stringMatching(/on stdin, not on the command line/) as unknown },
    ],
    [['set', '9T'], { ok: false, error: expect.stringMatching(/not a variable name/) as unknown }],
    [['delete', 'T', 'x'], { ok: false, error: "unknown argument 'x'" }],
    [['list', '-v'], { ok: false, error: "unknown argument '-v'" }],
    [['get', 'T'], { ok: false, error: "unknown subcommand 'get'" }],
    [[], { ok: false, error: expect.stringMatching(/set, list or delete/) as unknown }],
  ])('%j', (argv, expected) => {
    expect(parseSecretArgs(argv)).toEqual(expected);
  });
});

describe('valueFromStdin', () => {
  test.each([
    ['token\n', 'token'],
    ['token\r\n', 'token'],
    ['token', 'token'],
    ['two\nlines\n\n', 'two\nlines\n'],
    ['\n', ''],
  ])('%j -> %j', (text, value) => {
    expect(valueFromStdin(Buffer.from(text))).toBe(value);
  });
});

function harness(input: SecretInput) {
  const out: string[] = [];
  const err: string[] = [];
  const home = mkdtempSync(path.join(tmpdir(), 'switchyard-secret-cli-'));
  const io: CliIo = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env: { SWITCHYARD_HOME: home, SWITCHYARD_SECRET_STORE: 'file' },
    platform: process.platform,
  };
  return { io, out, err, run: (argv: string[]) => secret(io, argv, input) };
}

const tty = (answer: string | undefined): SecretInput => ({
  isTTY: true,
  readAll: () => Promise.reject(new Error('not read from a terminal')),
  readHidden: () => Promise.resolve(answer),
});

describe('switchyard secret set from a terminal', () => {
  test('a typed value is stored and never printed', async () => {
    const h = harness(tty('typed-s3cret'));
    expect(await h.run(['set', 'TOKEN'])).toBe(0);
    expect(await h.run(['list'])).toBe(0);
    expect(h.out.join('')).toContain('TOKEN\n');
    expect(h.out.join('') + h.err.join('')).not.toContain('typed-s3cret');
  });

  test('cancelling stores nothing', async () => {
    const h = harness(tty(undefined));
    expect(await h.run(['set', 'TOKEN'])).toBe(1);
    expect(h.err.join('')).toContain('cancelled; nothing was stored');
    h.out.length = 0;
    await h.run(['list']);
    expect(h.out.join('')).toBe('');
  });

  test('a NUL in the value is refused', async () => {
    const h = harness(tty('a\u0000b'));
    expect(await h.run(['set', 'TOKEN'])).toBe(1);
    expect(h.err.join('')).toContain('NUL');
  });
});
