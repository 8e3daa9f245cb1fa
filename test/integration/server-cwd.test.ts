import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  FIXTURE_SERVER,
  HOST_BUNDLE,
  HOST_NODE,
  HostHarness,
  approveAll,
  makeHome,
} from './host-harness';

/**
 * The folder a local server runs in. With no `cwd` in its entry it is the user's home folder,
 * never the folder the host or the CLI was started in: a repository the user runs
 * `switchyard tools` in could otherwise supply what the approved command loads from its working
 * folder (the package `npx` runs, the module `python -m` imports, a relative script), with no
 * launch card. An entry's `cwd` is used as written.
 */

const scratch = mkdtempSync(join(tmpdir(), 'switchyard-cwd-'));
const userHome = join(scratch, 'user-home');
const repository = join(scratch, 'cloned-repository');
const chosen = join(scratch, 'chosen');
for (const dir of [userHome, repository, chosen]) mkdirSync(dir);

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

function configured(marks: string): { home: string; plain: string; pinned: string } {
  mkdirSync(marks);
  const plain = join(marks, 'plain');
  const pinned = join(marks, 'pinned');
  const home = makeHome({
    mcpServers: {
      plain: { command: process.execPath, args: [FIXTURE_SERVER, `--cwd=${plain}`] },
      pinned: { command: process.execPath, args: [FIXTURE_SERVER, `--cwd=${pinned}`], cwd: chosen },
    },
  });
  approveAll(home);
  return { home, plain, pinned };
}

const folder = (file: string): string => realpathSync(readFileSync(file, 'utf8'));

describe('the folder a server runs in', () => {
  it('is the home folder for `switchyard tools` run inside a repository, or the cwd written', () => {
    const { home, plain, pinned } = configured(join(scratch, 'cli'));
    const run = spawnSync(HOST_NODE, [HOST_BUNDLE, 'tools'], {
      cwd: repository,
      env: { ...process.env, SWITCHYARD_HOME: home, HOME: userHome, USERPROFILE: userHome },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(folder(plain)).toBe(realpathSync(userHome));
    expect(folder(pinned)).toBe(realpathSync(chosen));
  });

  it('is the home folder for the host the browser starts, whatever folder it started in', async () => {
    const { home, plain, pinned } = configured(join(scratch, 'host'));
    const host = new HostHarness(home, { env: { HOME: userHome, USERPROFILE: userHome } });
    try {
      await host.hello();
      // Each writes its folder as it starts, before its handshake.
      const servers = await host.settled();
      expect(servers.map((s) => [s.name, s.status.state]).sort()).toEqual([
        ['pinned', 'running'],
        ['plain', 'running'],
      ]);
    } finally {
      await host.close();
    }
    expect(folder(plain)).toBe(realpathSync(userHome));
    expect(folder(pinned)).toBe(realpathSync(chosen));
  });
});
