import { describe, expect, test } from 'vitest';
import { FakeCommandRunner, exit, ok } from '../testing/fake-command-runner';
import { createSecretStore } from './create-secret-store';
import type { CommandRequest, CommandResult } from './run-command';

const HOME = '/home/u/.config/switchyard';
const BUS = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus', PATH: '/usr/bin' };
const everyTool = () => true;
const noTool = () => false;
const timeout = (): CommandResult => {
  throw new Error('/usr/bin/secret-tool did not answer within 5000 ms');
};

// Dangerous direction: a probe that flaps between the OS store and the file, so a secret set in
// one run is looked for in the other. Only a definite "none" may pick the file.
describe('createSecretStore picks the backend', () => {
  test.each<{
    name: string;
    platform: NodeJS.Platform;
    env: Record<string, string>;
    isExecutable: (file: string) => boolean;
    answer: (request: CommandRequest) => CommandResult;
    kind: string;
    note?: RegExp;
  }>([
    {
      name: 'linux with a Secret Service',
      platform: 'linux',
      env: BUS,
      isExecutable: everyTool,
      answer: () => exit(1),
      kind: 'secret-service',
    },
    {
      name: 'linux without secret-tool',
      platform: 'linux',
      env: BUS,
      isExecutable: noTool,
      answer: () => exit(1),
      kind: 'file',
      note: /secret-tool was not found.*libsecret-tools/,
    },
    {
      name: 'linux, headless (no bus)',
      platform: 'linux',
      env: { PATH: '/usr/bin' },
      isExecutable: everyTool,
      answer: () => exit(1),
      kind: 'file',
      note: /no D-Bus session bus/,
    },
    {
      name: 'linux, no service on the bus',
      platform: 'linux',
      env: BUS,
      isExecutable: everyTool,
      answer: () => exit(1, 'secret-tool: The name org.freedesktop.secrets was not provided\n'),
      kind: 'file',
      note: /not provided/,
    },
    {
      name: 'linux, a slow service is still used',
      platform: 'linux',
      env: BUS,
      isExecutable: everyTool,
      answer: timeout,
      kind: 'secret-service',
      note: /slow to answer/,
    },
    {
      name: 'macOS with a default keychain',
      platform: 'darwin',
      env: {},
      isExecutable: everyTool,
      answer: () => ok('"/Users/u/Library/Keychains/login.keychain-db"\n'),
      kind: 'keychain',
    },
    {
      name: 'macOS without a default keychain',
      platform: 'darwin',
      env: {},
      isExecutable: everyTool,
      answer: () =>
        exit(50, 'security: SecKeychainCopyDefault: A default keychain could not be found.\n'),
      kind: 'file',
      note: /no default keychain/,
    },
    {
      name: 'Windows',
      platform: 'win32',
      env: { SystemRoot: 'C:\\Windows' },
      isExecutable: everyTool,
      answer: () => ok(),
      kind: 'credential-manager',
    },
    {
      name: 'Windows without PowerShell',
      platform: 'win32',
      env: { SystemRoot: 'C:\\Windows' },
      isExecutable: noTool,
      answer: () => ok(),
      kind: 'file',
      note: /powershell.exe was not found/,
    },
    {
      name: 'Windows with a relative SystemRoot (no powershell.exe from the current folder)',
      platform: 'win32',
      env: { SystemRoot: 'Windows' },
      isExecutable: everyTool,
      answer: () => ok(),
      kind: 'file',
      note: /cannot find powershell.exe: SystemRoot is "Windows"/,
    },
    {
      name: 'SWITCHYARD_SECRET_STORE=file',
      platform: 'linux',
      env: { ...BUS, SWITCHYARD_SECRET_STORE: 'file' },
      isExecutable: everyTool,
      answer: () => exit(1),
      kind: 'file',
      note: /SWITCHYARD_SECRET_STORE=file/,
    },
    {
      name: 'SWITCHYARD_SECRET_STORE=os',
      platform: 'linux',
      env: { ...BUS, SWITCHYARD_SECRET_STORE: 'OS' },
      isExecutable: everyTool,
      answer: () => exit(1),
      kind: 'secret-service',
    },
  ])('$name -> $kind', async ({ platform, env, isExecutable, answer, kind, note }) => {
    const runner = new FakeCommandRunner(answer);
    const store = await createSecretStore({
      home: HOME,
      platform,
      env,
      run: runner.run,
      isExecutable,
    });
    expect(store.info.kind).toBe(kind);
    if (note) expect(store.info.note).toMatch(note);
    else expect(store.info.note).toBeUndefined();
  });

  test('SWITCHYARD_SECRET_STORE=file runs no tool at all', async () => {
    const runner = new FakeCommandRunner(() => exit(1));
    await createSecretStore({
      home: HOME,
      platform: 'linux',
      env: { ...BUS, SWITCHYARD_SECRET_STORE: 'file' },
      run: runner.run,
      isExecutable: everyTool,
    });
    expect(runner.requests).toEqual([]);
  });

  test('SWITCHYARD_SECRET_STORE=os without an OS store is an error, not a silent fallback', async () => {
    const runner = new FakeCommandRunner(() => exit(1));
    await expect(
      createSecretStore({
        home: HOME,
        platform: 'linux',
        env: { SWITCHYARD_SECRET_STORE: 'os' },
        run: runner.run,
        isExecutable: noTool,
      }),
    ).rejects.toThrow(
      /SWITCHYARD_SECRET_STORE=os, but the OS secret store cannot be used: secret-tool was not found/,
    );
  });

  test('an unknown SWITCHYARD_SECRET_STORE says what it can be', async () => {
    await expect(
      createSecretStore({
        home: HOME,
        platform: 'linux',
        env: { SWITCHYARD_SECRET_STORE: 'vault' },
      }),
    ).rejects.toThrow(/'auto'.*'os' or 'file'/);
  });
});
