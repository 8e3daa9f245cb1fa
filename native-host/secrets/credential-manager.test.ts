import { describe, expect, test } from 'vitest';
import { FakeCommandRunner, exit, ok } from '../testing/fake-command-runner';
import {
  CredentialManagerStore,
  MAX_CREDENTIAL_BLOB_BYTES,
  powershellArgs,
  powershellPath,
} from './credential-manager';
import type { CommandRequest, CommandResult } from './run-command';

const SECRET = 'ghp_windows s3cret\r\nline 2 ü';
const ENV = { SystemRoot: 'C:\\Windows' };
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');

/** The fixed script's protocol: request lines on stdin, one answer (plus key lines) on stdout. */
function emulateScript(): (request: CommandRequest) => CommandResult {
  const creds = new Map<string, string>();
  return (request) => {
    const [op = '', target64 = '', value64 = ''] = (request.stdin ?? '').split('\n');
    const target = unb64(target64);
    switch (op) {
      case 'get':
        return ok(creds.has(target) ? `found ${creds.get(target) ?? ''}` : 'missing');
      case 'set':
        creds.set(target, value64);
        return ok('ok');
      case 'delete':
        return ok(creds.delete(target) ? 'deleted' : 'missing');
      case 'list':
        return ok(
          ['none', ...[...creds.keys(), 'other:app'].map((t) => `key ${b64(t)}`)].join('\n'),
        );
      default:
        return exit(1);
    }
  };
}

describe('CredentialManagerStore with a fake PowerShell', () => {
  test('round-trips; every call has the same fixed argv and the value only on stdin', async () => {
    const runner = new FakeCommandRunner(emulateScript());
    const store = new CredentialManagerStore({ run: runner.run, env: ENV });
    await store.set('var:TOKEN', SECRET);
    await store.set('var:EMPTY', '');
    expect(await store.get('var:TOKEN')).toBe(SECRET);
    expect(await store.get('var:EMPTY')).toBe('');
    expect(await store.get('var:NONE')).toBeUndefined();
    expect(await store.list('var:')).toEqual(['var:EMPTY', 'var:TOKEN']);
    expect(await store.delete('var:TOKEN')).toBe(true);
    expect(await store.delete('var:TOKEN')).toBe(false);
    for (const request of runner.requests) {
      expect(request.command).toBe(
        'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
      );
      expect(request.args).toEqual(powershellArgs());
    }
    expect(runner.argvText()).not.toContain('s3cret');
    expect(runner.argvText()).not.toContain(b64(SECRET));
    expect(runner.requests[0]?.stdin).toBe(`set\n${b64('switchyard:var:TOKEN')}\n${b64(SECRET)}\n`);
  });

  test('the script names the four Cred* functions and reads its request from stdin', () => {
    const script = Buffer.from(powershellArgs().at(-1) ?? '', 'base64').toString('utf16le');
    for (const fn of [
      'CredReadW',
      'CredWriteW',
      'CredDeleteW',
      'CredEnumerateW',
      '[Console]::In.ReadToEnd()',
    ]) {
      expect(script).toContain(fn);
    }
  });

  test('a value over the Credential Manager limit is refused before anything runs', async () => {
    const runner = new FakeCommandRunner(emulateScript());
    const store = new CredentialManagerStore({ run: runner.run, env: ENV });
    await expect(store.set('var:BIG', 'x'.repeat(MAX_CREDENTIAL_BLOB_BYTES + 1))).rejects.toThrow(
      /longer than the Credential Manager holds/,
    );
    expect(runner.requests).toEqual([]);
  });

  test.each([
    [
      'an error line',
      ok(`error ${b64('CredWriteW failed: Win32 error 1312')}`),
      /Win32 error 1312/,
    ],
    [
      'PowerShell failing',
      exit(1, 'Add-Type : compilation failed\n'),
      /Add-Type : compilation failed/,
    ],
    ['garbage', ok('<html>'), /does not understand/],
    ['a forged key line', ok('found !!!'), /does not understand/],
  ])('%s is a clear error', async (_name, answer, message) => {
    const runner = new FakeCommandRunner(() => answer);
    const store = new CredentialManagerStore({ run: runner.run, env: ENV });
    await expect(store.get('var:A')).rejects.toThrow(message);
  });

  test('a listing line that is not a key line is garbage', async () => {
    const runner = new FakeCommandRunner(() => ok('none\nkey !!\n'));
    const store = new CredentialManagerStore({ run: runner.run, env: ENV });
    await expect(store.list('')).rejects.toThrow(/does not understand/);
  });

  test('powershellPath uses SystemRoot, never PATH', () => {
    expect(powershellPath({ SystemRoot: 'D:\\Win', PATH: 'C:\\evil' })).toBe(
      'D:\\Win\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
    );
    // Unset, empty, relative or `..`: no path at all, never one in the current folder.
    for (const SystemRoot of ['', 'Windows', '.\\Windows', 'C:\\..\\x', '\\\\server\\share']) {
      expect(powershellPath({ SystemRoot })).toBeNull();
    }
    expect(powershellPath({})).toBeNull();
  });

  test('with no usable SystemRoot, nothing runs and the error says what to do', async () => {
    const runner = new FakeCommandRunner(() => ok('ok\n'));
    const store = new CredentialManagerStore({ run: runner.run, env: { SystemRoot: 'Windows' } });
    await expect(store.get('var:K')).rejects.toThrow(
      /cannot find powershell.exe: .*Open a new terminal/,
    );
    expect(runner.requests).toHaveLength(0);
  });
});
