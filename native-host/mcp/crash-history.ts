import type { CrashHistory, ExitInfo } from '../../protocol/servers';

/**
 * A server's crashes since the user last started it (issue 14: "a server restarted after a crash
 * shows no trace of it"): counted across automatic restarts, unlike the restart policy's count,
 * which a stable run resets. Pure.
 */
export function recordCrash(
  history: CrashHistory | null,
  exit: ExitInfo,
  at: number,
): CrashHistory {
  return { count: (history?.count ?? 0) + 1, lastExit: { ...exit }, lastAt: at };
}
