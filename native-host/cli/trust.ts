import path from 'node:path';
import { normalizeFolder } from '../config/workspace-folder';
import { HostError } from '../shared/host-error';
import { formatConsent } from './consent-text';
import type { CliIo } from './io';
import { confirm } from './prompt';
import { withCore } from './session';

/**
 * `switchyard trust [<server>...] [--all] [--yes]`: shows each server waiting at the launch gate,
 * exactly as the consent card does, and records the approval of what the user accepts. Without a
 * terminal it approves nothing unless `--yes` is given.
 */
export async function trust(io: CliIo, args: readonly string[]): Promise<number> {
  const yes = args.includes('--yes');
  const all = args.includes('--all');
  const names = args.filter((a) => !a.startsWith('--'));
  return withCore(
    io,
    async (core) => {
      const pending = await core.unapprovedLaunches();
      const chosen =
        all || names.length === 0 ? pending : pending.filter((c) => names.includes(c.server));
      // A name that is not waiting fails the command, whether or not others were approved.
      const strays = names.filter((name) => !pending.some((c) => c.server === name));
      for (const name of strays) {
        io.err(
          `switchyard trust: '${name}' is not waiting for approval (see 'switchyard doctor').\n`,
        );
      }
      if (chosen.length === 0) {
        io.out(
          pending.length === 0 ? 'Every configured server is approved.\n' : 'Nothing to approve.\n',
        );
        return strays.length > 0 ? 1 : 0;
      }
      if (!all && names.length === 0 && !yes) {
        for (const c of chosen) io.out(`${formatConsent(c)}\n\n`);
        io.out("Approve with 'switchyard trust <server>' (or --all).\n");
        return 0;
      }
      let refused = 0;
      for (const consent of chosen) {
        io.out(`${formatConsent(consent)}\n`);
        const ok = yes || (await confirm(`Approve '${consent.server}' to run exactly this?`));
        if (!ok) {
          refused += 1;
          io.out(
            process.stdin.isTTY
              ? 'Not approved.\n\n'
              : 'Not approved: no terminal to ask (pass --yes to approve).\n\n',
          );
          continue;
        }
        try {
          await core.approveLaunch(consent.server, consent.fingerprint, { start: false });
          io.out('Approved.\n\n');
        } catch (error) {
          if (!(error instanceof HostError)) throw error;
          io.err(`switchyard trust: ${error.message}\n`);
          refused += 1;
        }
      }
      return refused === 0 && strays.length === 0 ? 0 : 1;
    },
    { start: false, command: 'trust' },
  );
}

/**
 * What `switchyard revoke` was asked to revoke: one server, or one workspace (`--workspace
 * <folder>`), never both; undefined for anything else. The folder is taken from `cwd` and spelled
 * the way workspace roots are (no trailing separator), or `.` and `~/src/repo/` would match none.
 */
export function revokeTarget(
  args: readonly string[],
  cwd: string,
): { server: string } | { workspace: string } | undefined {
  const workspaceIndex = args.indexOf('--workspace');
  const workspace = workspaceIndex >= 0 ? args[workspaceIndex + 1] : undefined;
  const servers = args.filter(
    (a, i) => !a.startsWith('--') && (workspaceIndex < 0 || i !== workspaceIndex + 1),
  );
  if (workspaceIndex >= 0) {
    return workspace === undefined || workspace.startsWith('--') || servers.length > 0
      ? undefined
      : { workspace: normalizeFolder(path.resolve(cwd, workspace)) };
  }
  const [server] = servers;
  return server === undefined || servers.length > 1 ? undefined : { server };
}

/** `switchyard revoke <server> | --workspace <folder>`: the server asks again before it next runs. */
export async function revoke(io: CliIo, args: readonly string[]): Promise<number> {
  const target = revokeTarget(args, process.cwd());
  if (target === undefined) {
    io.err('usage: switchyard revoke <server>   or   switchyard revoke --workspace <folder>\n');
    return 2;
  }
  return withCore(
    io,
    async (core) => {
      try {
        const affected = await core.revokeLaunch(target, { restart: false });
        io.out(
          affected.length === 0
            ? 'No configured server was affected.\n'
            : `Revoked: ${affected.map((s) => s.name).join(', ')}. They will ask before they run again.\n`,
        );
        return 0;
      } catch (error) {
        if (!(error instanceof HostError)) throw error;
        io.err(`switchyard revoke: ${error.message}\n`);
        return 1;
      }
    },
    { start: false, command: 'revoke' },
  );
}
