import { spawn as nodeSpawn, type ChildProcess } from 'node:child_process';
import { Socket } from 'node:net';

/**
 * The guardian (issue 13): one tiny `/bin/sh` per host, in a session of its own, that holds the
 * read end of a pipe from the host and the list of the host's live server process groups. The
 * host tells it `+<pgid>` when a server starts and `-<pgid>` when its group is gone. When the
 * pipe reaches EOF without a goodbye, the host died without running its shutdown (SIGKILL, the
 * OOM killer, a crash of Node): the guardian SIGTERMs every group still listed, waits a second,
 * SIGKILLs them and exits. A host that shuts down normally untracks every group first, so the
 * guardian then kills nothing. A `sh` costs about 1-2 MiB of RSS, against about 40 for a second
 * Node (decision 0013). Linux and macOS only: Windows has no process groups to signal.
 *
 * It only ever holds groups that are live by the host's own account, so a pid reused by another
 * program can be hit only if the host died in the instant between a group emptying and its
 * `-<pgid>` line.
 */

/** The guardian's `$0`: what `ps` shows at the end of its command line. */
export const GUARDIAN_NAME = 'switchyard-guardian';

/** The guardian's program, POSIX sh with builtins only (no sed, no ps). */
export const GUARDIAN_SCRIPT = [
  "groups=' '",
  'while IFS= read -r line; do',
  '  case $line in',
  '    +[0-9]*) groups="$groups${line#+} " ;;',
  "    -[0-9]*) gone=${line#-}; next=' '",
  '      for g in $groups; do [ "$g" = "$gone" ] || next="$next$g "; done',
  '      groups=$next ;;',
  '  esac',
  'done',
  '[ "$groups" = \' \' ] && exit 0',
  'for g in $groups; do kill -TERM -"$g" 2>/dev/null; done',
  'sleep 1',
  'for g in $groups; do kill -KILL -"$g" 2>/dev/null; done',
  'exit 0',
].join('\n');

export interface Guardian {
  /** The guardian's own pid (for doctor and tests). */
  readonly pid: number | undefined;
  /** A server's process group started (its pgid is its leader's pid). */
  track(pgid: number): void;
  /** That group is gone: the guardian forgets it. */
  untrack(pgid: number): void;
  /** Ends the pipe: after `untrack` of every group, the guardian exits killing nothing. */
  close(): void;
}

export interface GuardianOptions {
  readonly platform?: NodeJS.Platform;
  readonly spawn?: typeof nodeSpawn;
  /** Told once when the guardian could not be started or its pipe broke; servers still run. */
  readonly onError?: (message: string) => void;
}

/** Starts a guardian for this process; undefined on Windows. Never throws. */
export function startGuardian(options: GuardianOptions = {}): Guardian | undefined {
  if ((options.platform ?? process.platform) === 'win32') return undefined;
  let child: ChildProcess;
  try {
    child = (options.spawn ?? nodeSpawn)('/bin/sh', ['-c', GUARDIAN_SCRIPT, GUARDIAN_NAME], {
      stdio: ['pipe', 'ignore', 'ignore'],
      // Its own session: neither the browser killing the host's group nor a terminal hang-up
      // takes the guardian with it.
      detached: true,
    });
  } catch (error) {
    options.onError?.(`the process guardian did not start: ${String(error)}`);
    return undefined;
  }
  let broken = false;
  const fail = (message: string): void => {
    if (broken) return;
    broken = true;
    options.onError?.(message);
  };
  child.on('error', (error) => {
    fail(`the process guardian did not start: ${error.message}`);
  });
  child.stdin?.on('error', (error) => {
    fail(`the process guardian's pipe broke: ${error.message}`);
  });
  // Neither the guardian nor its pipe may keep this process alive: it must still exit by itself.
  child.unref();
  const stdin = child.stdin;
  if (stdin instanceof Socket) stdin.unref();
  const send = (line: string): void => {
    if (broken || stdin === null || stdin.destroyed) return;
    stdin.write(`${line}\n`);
  };
  return {
    get pid() {
      return child.pid;
    },
    track: (pgid) => {
      if (Number.isSafeInteger(pgid) && pgid > 1) send(`+${pgid}`);
    },
    untrack: (pgid) => {
      if (Number.isSafeInteger(pgid) && pgid > 1) send(`-${pgid}`);
    },
    close: () => {
      if (stdin !== null && !stdin.destroyed) stdin.end();
    },
  };
}
