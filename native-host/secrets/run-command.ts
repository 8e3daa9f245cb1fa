import { spawn } from 'node:child_process';
import { SecretStoreError } from './keys';

/**
 * Runs a store's command-line tool (secret-tool, security, PowerShell) without a shell, with a
 * deadline and bounded output. Injected into every OS backend, so tests record the argv and the
 * stdin a backend builds on any OS, and can assert that no value is ever in the argv (which `ps`
 * and /proc/<pid>/cmdline show to every process of the user).
 */

export interface CommandRequest {
  /** Absolute path of the program (never looked up on PATH here). */
  readonly command: string;
  /** Arguments: keys, attribute names, scripts; NEVER a secret's value. */
  readonly args: readonly string[];
  /** What the child reads on stdin (values travel here); stdin is closed after it. */
  readonly stdin?: string;
  readonly timeoutMs: number;
  /** The child's whole environment. */
  readonly env: Readonly<Record<string, string>>;
  /** Start the child in a session of its own, without a controlling terminal. */
  readonly detached?: boolean;
}

export interface CommandResult {
  /** Exit code, or null when a signal ended it. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export type CommandRunner = (request: CommandRequest) => Promise<CommandResult>;

/** Output beyond this is garbage for a store answer: the child is killed and the call fails. */
export const MAX_COMMAND_OUTPUT_BYTES = 4 * 1024 * 1024;

/** The production runner: `child_process.spawn`, no shell, SIGKILL at the deadline. */
export const runCommand: CommandRunner = (request) =>
  new Promise<CommandResult>((resolve, reject) => {
    const child = spawn(request.command, [...request.args], {
      env: request.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
      detached: request.detached === true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let bytes = 0;
    let failure: SecretStoreError | undefined;
    const fail = (error: SecretStoreError): void => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => {
      fail(
        new SecretStoreError(
          `${request.command} did not answer within ${request.timeoutMs} ms (a locked store waiting for a password prompt nobody sees?)`,
        ),
      );
    }, request.timeoutMs);
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_COMMAND_OUTPUT_BYTES) {
        fail(
          new SecretStoreError(
            `${request.command} wrote more than ${MAX_COMMAND_OUTPUT_BYTES} bytes`,
          ),
        );
      } else into.push(chunk);
    };
    child.stdout.on('data', collect(out));
    child.stderr.on('data', collect(err));
    child.stdin.on('error', () => undefined); // a child that exits without reading its stdin
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new SecretStoreError(`could not run ${request.command}: ${error.message}`));
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (failure) reject(failure);
      else {
        resolve({
          code,
          stdout: Buffer.concat(out).toString('utf8'),
          stderr: Buffer.concat(err).toString('utf8'),
        });
      }
    });
    child.stdin.end(request.stdin ?? '');
  });

/** The first line of a tool's stderr, trimmed and capped, for an error message. */
export function firstLine(text: string): string {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  const CONTROL = /[\u0000-\u001f\u007f]/g; // eslint-disable-line no-control-regex -- the point
  return line.trim().replace(CONTROL, '?').slice(0, 300);
}
