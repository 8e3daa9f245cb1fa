import { spawn, type ChildProcess } from 'node:child_process';

/**
 * A server process that prints `LISTENING <port>` on stderr once it listens: the remote fixtures
 * (`test/fixtures/remote-modern-server.mjs`) and npm servers preloaded with
 * `test/fixtures/loopback-only.mjs`. Shared by the remote-server tests and the bench, so both
 * start the same servers the same way.
 */

export interface ListeningProcess {
  readonly child: ChildProcess;
  readonly port: number;
}

/** Longest a server may take to print its port before it counts as broken. */
const LISTEN_TIMEOUT_MS = 20_000;

/**
 * Runs `node <args>` with PORT=0 (unless `env` says otherwise) and resolves with the port it
 * printed. A server that never prints one is killed and the promise rejects with what it wrote.
 */
export function startListening(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<ListeningProcess> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no LISTENING line from ${args.join(' ')}: ${text}`));
    }, LISTEN_TIMEOUT_MS);
    child.stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const match = /LISTENING (\d+)/.exec(text);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]) });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited (${String(code)}): ${text}`));
    });
  });
}

/** SIGKILLs the server and resolves once it has exited (at once if it already has). */
export function stopListening(server: ListeningProcess | undefined): Promise<void> {
  const { child } = server ?? {};
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    child.once('exit', () => {
      resolve();
    });
    child.kill('SIGKILL');
  });
}
