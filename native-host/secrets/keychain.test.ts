import { describe, expect, test } from 'vitest';
import { FakeCommandRunner, exit, ok } from '../testing/fake-command-runner';
import { KeychainStore, parseKeychainDump, quoteForSecurity } from './keychain';
import type { CommandRequest, CommandResult } from './run-command';

const SECRET = 'sk-live "quoted" \\ and\nnewline ü';

/** Splits one `security -i` line as security.c's split_line does (quotes, backslash escapes). */
function splitLine(line: string): string[] {
  const args: string[] = [];
  let current: string | undefined;
  let quote: string | undefined;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i] ?? '';
    if (quote === undefined && current === undefined && /\s/.test(c)) continue;
    if (current === undefined) {
      current = '';
      if (c === '"' || c === "'") {
        quote = c;
        continue;
      }
    }
    if (c === '\\') {
      current += line[++i] ?? '';
    } else if (quote !== undefined ? c === quote : /\s/.test(c)) {
      args.push(current);
      current = undefined;
      quote = undefined;
    } else current += c;
  }
  if (current !== undefined) args.push(current);
  return args;
}

/** `/usr/bin/security` as documented: items by account; not found is exit 44. */
function emulateSecurity(): (request: CommandRequest) => CommandResult {
  const items = new Map<string, string>();
  const option = (args: readonly string[], flag: string) => args[args.indexOf(flag) + 1] ?? '';
  return (request) => {
    let args = request.args;
    if (args[0] === '-i') {
      args = splitLine((request.stdin ?? '').replace(/\n$/, ''));
    }
    switch (args[0] ?? '') {
      case 'add-generic-password':
        items.set(option(args, '-a'), option(args, '-w'));
        return ok();
      case 'find-generic-password': {
        const value = items.get(option(args, '-a'));
        return value === undefined
          ? exit(
              44,
              'security: SecKeychainSearchCopyNext: The specified item could not be found in the keychain.\n',
            )
          : ok(`${value}\n`);
      }
      case 'delete-generic-password':
        return items.delete(option(args, '-a')) ? ok() : exit(44);
      case 'dump-keychain':
        return ok(
          [...items.keys()]
            .map(
              (account) =>
                `keychain: "/Users/u/Library/Keychains/login.keychain-db"\nversion: 512\nclass: "genp"\nattributes:\n    "acct"<blob>="${account}"\n    "svce"<blob>="switchyard"\n`,
            )
            .join('') +
            'keychain: "/Users/u/Library/Keychains/login.keychain-db"\nclass: "genp"\nattributes:\n    "acct"<blob>="var:OTHER_APP"\n    "svce"<blob>="someone-else"\n',
        );
      default:
        return exit(1, 'unknown command');
    }
  };
}

describe('KeychainStore with a fake security', () => {
  test('round-trips any value; writes go through stdin in interactive mode, never the argv', async () => {
    const runner = new FakeCommandRunner(emulateSecurity());
    const store = new KeychainStore({ run: runner.run, env: {} });
    await store.set('var:TOKEN', SECRET);
    await store.set('oauth:my "odd" server:tokens', '{}');
    expect(await store.get('var:TOKEN')).toBe(SECRET);
    expect(await store.get('oauth:my "odd" server:tokens')).toBe('{}');
    expect(await store.get('var:NONE')).toBeUndefined();
    expect(await store.list('')).toEqual(['oauth:my "odd" server:tokens', 'var:TOKEN']);
    expect(await store.delete('var:TOKEN')).toBe(true);
    expect(await store.delete('var:TOKEN')).toBe(false);
    expect(runner.argvText()).not.toContain('sk-live');
    expect(runner.argvText()).not.toContain(Buffer.from(SECRET).toString('base64'));
    const write = runner.requests[0];
    expect(write?.args).toEqual(['-i']);
    expect(write?.command).toBe('/usr/bin/security');
    expect(write?.detached).toBe(true);
    expect(write?.stdin?.split('\n')).toHaveLength(2); // one command line, then nothing
  });

  test.each([
    ['plain', 'var:A', '"var:A"'],
    ['quotes and backslashes', 'oauth:a"b\\c:x', '"oauth:a\\"b\\\\c:x"'],
  ])('quoteForSecurity: %s', (_name, text, quoted) => {
    expect(quoteForSecurity(text)).toBe(quoted);
    expect(splitLine(quoted)).toEqual([text]);
  });

  test('a value too long for one interactive line is refused before anything runs', async () => {
    const runner = new FakeCommandRunner(emulateSecurity());
    const store = new KeychainStore({ run: runner.run, env: {} });
    await expect(store.set('var:BIG', 'x'.repeat(4000))).rejects.toThrow(
      /too long.*SWITCHYARD_SECRET_STORE=file/,
    );
    expect(runner.requests).toEqual([]);
  });

  test('an item Switchyard did not write (not base64) is a clear error', async () => {
    const runner = new FakeCommandRunner(() => ok('not base64 at all!\n'));
    const store = new KeychainStore({ run: runner.run, env: {} });
    await expect(store.get('var:A')).rejects.toThrow(/not written by Switchyard/);
  });

  test.each([
    [
      'a locked keychain',
      () => exit(36, 'security: SecKeychainItemCopyContent: User interaction is not allowed.\n'),
    ],
    ['a failed interactive command', () => ok('', 'add-generic-password: returned 45\n')],
  ])('%s is an error that says what to do', async (_name, answer) => {
    const runner = new FakeCommandRunner(answer);
    const store = new KeychainStore({ run: runner.run, env: {} });
    const call = _name === 'a locked keychain' ? store.get('var:A') : store.set('var:A', 'v');
    await expect(call).rejects.toThrow(/keychain.*SWITCHYARD_SECRET_STORE=file/);
  });
});

describe('parseKeychainDump', () => {
  test.each([
    ['empty', '', []],
    [
      'hex-encoded account',
      `keychain: "k"\nclass: "genp"\nattributes:\n    "acct"<blob>=0x6F617574683AC3BC3A78  "oauth:\\303\\274:x"\n    "svce"<blob>="switchyard"\n`,
      ['oauth:ü:x'],
    ],
    [
      'another service is ignored',
      `keychain: "k"\nclass: "genp"\nattributes:\n    "acct"<blob>="var:A"\n    "svce"<blob>="other"\n`,
      [],
    ],
    [
      'an internet password is ignored',
      `keychain: "k"\nclass: "inet"\nattributes:\n    "acct"<blob>="var:A"\n    "svce"<blob>="switchyard"\n`,
      [],
    ],
    ['garbage', 'keychain: \n\u0000\u0001 "acct"<blob>=\n', []],
  ])('%s', (_name, text, keys) => {
    expect(parseKeychainDump(text)).toEqual(keys);
  });
});
