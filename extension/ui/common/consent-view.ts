import type { ConsentReason, ConsentRequest, LaunchChange } from '../../../protocol/servers';

/**
 * Wording for the launch consent card (design D6): why the host asks, the command line as a
 * reader would type it, the fingerprint prefix the user can compare with `switchyard doctor`, and
 * each change since the previous approval as a before/after pair.
 */

/** Hex characters of the fingerprint the card shows (64 bits: enough to compare by eye). */
export const FINGERPRINT_PREFIX_CHARS = 16;

export function consentReasonText(reason: ConsentReason): string {
  switch (reason) {
    case 'workspace':
      return 'A workspace config file (written by the repository, not by you) asks to run this server. Nothing runs until you approve.';
    case 'edited-outside':
      // Also a revoked or forgotten approval: the host cannot tell them apart (docs/protocol.md).
      return 'Switchyard has no approval for this entry of your config.json: it was added or changed by hand or by another program, or its approval was revoked. Nothing runs until you approve.';
    case 'changed':
      return 'What this server runs changed since you approved it.';
  }
}

/** `a1b2c3d4 e5f6a7b8`: the first FINGERPRINT_PREFIX_CHARS hex characters in groups of 8. */
export function fingerprintPrefix(fingerprint: string): string {
  const prefix = fingerprint.slice(0, FINGERPRINT_PREFIX_CHARS);
  return prefix.match(/.{1,8}/g)?.join(' ') ?? prefix;
}

const SHELL_SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One argument quoted for a POSIX shell, for reading (the host never runs a shell). */
export function shellQuote(arg: string): string {
  if (SHELL_SAFE.test(arg)) return arg;
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** The executable and its arguments as one shell-quoted line. */
export function commandLine(executable: string, args: readonly string[]): string {
  return [executable, ...args].map(shellQuote).join(' ');
}

export interface LaunchChangeView {
  readonly label: string;
  readonly before: string;
  readonly after: string;
}

const FIELD_LABELS = {
  executable: 'Program',
  transport: 'Transport',
  args: 'Arguments',
  cwd: 'Working folder',
  provenance: 'Comes from',
  workspaceRoot: 'Workspace folder',
  oauthClientId: 'OAuth client id',
  oauthClientSecret: 'OAuth client secret from',
  oauthGrant: 'OAuth machine grant',
  toolPrefix: 'Tool name prefix',
} as const;

const NOT_SET = '(not set)';

/** One change for the card; a remote server's `executable` is its address. */
export function launchChangeView(change: LaunchChange, remote = false): LaunchChangeView {
  if ('key' in change) {
    return {
      label: `${change.field === 'env' ? 'Environment variable' : 'Header'} ${change.key}`,
      before: change.before ?? NOT_SET,
      after: change.after ?? NOT_SET,
    };
  }
  const label = remote && change.field === 'executable' ? 'Address' : FIELD_LABELS[change.field];
  return { label, before: change.before, after: change.after };
}

/** The workspace or user tier, in words. */
export function provenanceText(
  consent: Pick<ConsentRequest, 'provenance' | 'workspaceRoot'>,
): string {
  return consent.provenance === 'workspace'
    ? `a workspace config${consent.workspaceRoot === null ? '' : ` in ${consent.workspaceRoot}`}`
    : 'your user config';
}

/** A stable key for "Not now": a card dismissed for one fingerprint comes back for another. */
export function consentKey(consent: Pick<ConsentRequest, 'server' | 'fingerprint'>): string {
  return `${consent.server}\u0000${consent.fingerprint}`;
}
