import { messageOf } from '../../protocol/guards';
import { errnoCode } from '../shared/errno';

/** Spawning failed (missing file, permission, bad cwd); `code` is Node's errno string. */
export class ProcessSpawnError extends Error {
  override readonly name = 'ProcessSpawnError';
  readonly code: string | undefined;
  readonly command: string;

  constructor(command: string, cwd: string | undefined, cause: unknown) {
    const code = errnoCode(cause);
    super(spawnErrorMessage(command, cwd, code, cause), { cause });
    this.code = code;
    this.command = command;
  }
}

/** A send on a transport whose process has not started, is stopping or has exited. */
export class TransportClosedError extends Error {
  override readonly name = 'TransportClosedError';
}

function spawnErrorMessage(
  command: string,
  cwd: string | undefined,
  code: string | undefined,
  cause: unknown,
): string {
  if (code === 'ENOENT') {
    return cwd === undefined
      ? `could not start '${command}': it does not exist (or its #! interpreter does not). ` +
          'Check "command" for this server in config.json.'
      : `could not start '${command}': it, its #! interpreter or the working directory ` +
          `'${cwd}' does not exist. Check "command" and "cwd" for this server in config.json.`;
  }
  if (code === 'EACCES') {
    return (
      `could not start '${command}': permission denied. Make it executable (chmod +x), or set ` +
      '"command" to its interpreter with the script as the first argument.'
    );
  }
  if (code === 'EINVAL' && /\.(?:bat|cmd)$/i.test(command)) {
    // Node refuses batch files without a shell since CVE-2024-27980.
    return (
      `could not start '${command}': a batch file needs a shell, and Switchyard never runs ` +
      'one (design D6). Set "command" to the program it runs (for npx: node.exe, with the ' +
      'path of npx-cli.js as the first argument).'
    );
  }
  const detail = messageOf(cause);
  return `could not start '${command}': ${detail}`;
}
