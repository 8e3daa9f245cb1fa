import { describe, expect, test } from 'vitest';
import { LaunchError } from '../mcp/runtime-types';
import type { ServerLaunch } from '../shared/server-spec';
import { MemorySecretStore } from '../testing/memory-secret-store';
import { createLauncher } from './launch';

// Dangerous direction: a server started with a token silently "" (it then fails in ways that
// look like the server's fault), or a stored value overriding the user's own export.

const PRINT_TOKEN =
  'process.stderr.write("TOKEN=" + process.env.TOKEN + "\\n"); setInterval(() => {}, 1000)';

function launchOf(
  env: Record<string, string>,
  executable: string | null = process.execPath,
): ServerLaunch {
  return {
    name: 'srv',
    executable,
    notFound: null,
    notFoundReason: 'command-not-found',
    remote: null,
    command: 'node',
    args: ['-e', PRINT_TOKEN],
    env,
    cwd: undefined,
    handshakeTimeoutMs: 5_000,
    toolTimeoutMs: 5_000,
  };
}

async function tokenSeenBy(
  hostEnv: NodeJS.ProcessEnv,
  store: MemorySecretStore,
): Promise<string | undefined> {
  const launch = createLauncher({
    hostEnv,
    platform: process.platform,
    secrets: () => Promise.resolve(store),
  });
  const server = await launch(launchOf({ TOKEN: '${TOKEN}' }));
  try {
    for (let i = 0; i < 100; i += 1) {
      const line = server.stderrTail(10).find((l) => l.startsWith('TOKEN='));
      if (line !== undefined) return line.slice('TOKEN='.length);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return undefined;
  } finally {
    await server.transport.close();
  }
}

describe('createLauncher: ${VAR} from the environment, then the secret store', () => {
  const PATH = process.env['PATH'] ?? '';

  test('a value from the store reaches the server', async () => {
    const store = new MemorySecretStore({ 'var:TOKEN': 'from-the-store' });
    expect(await tokenSeenBy({ PATH }, store)).toBe('from-the-store');
  });

  test('an exported value wins over the store, which is then not even read', async () => {
    const store = new MemorySecretStore({ 'var:TOKEN': 'from-the-store' });
    expect(await tokenSeenBy({ PATH, TOKEN: 'exported' }, store)).toBe('exported');
    expect(store.reads).toEqual([]);
  });

  test('an unset variable fails the start by name, before anything is spawned', async () => {
    const launch = createLauncher({
      hostEnv: { PATH },
      platform: process.platform,
      secrets: () => Promise.resolve(new MemorySecretStore()),
    });
    // A program that does not exist: reaching spawn would fail with spawn-failed instead.
    const error = await launch(
      launchOf({ TOKEN: '${GITHUB_TOKEN}', B: '${B:-ok}' }, '/nonexistent/x'),
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LaunchError);
    expect(error).toMatchObject({
      reason: 'missing-variable',
      message:
        "'srv' needs GITHUB_TOKEN, which is not set: set it with `switchyard secret set GITHUB_TOKEN`, or export it before starting the browser.",
    });
  });

  test('a store that cannot be read is named in the failure', async () => {
    const store = new MemorySecretStore();
    store.failWith = new Error('secret-tool did not answer within 15000 ms');
    const launch = createLauncher({
      hostEnv: { PATH },
      platform: process.platform,
      secrets: () => Promise.resolve(store),
    });
    await expect(launch(launchOf({ TOKEN: '${TOKEN}' }, '/nonexistent/x'))).rejects.toThrow(
      /needs TOKEN.*The secret store could not be read: secret-tool did not answer/,
    );
  });
});
