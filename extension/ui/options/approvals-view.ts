import type { ApprovalUse, StoredApproval } from '../../../protocol/approvals';
import type { ParamsOf } from '../../../protocol/methods';

/**
 * Wording for the options page's review of launch approvals (design D6): which server each one
 * is for and where from, whether it is still used, and how to forget it.
 */

const USE_TEXT: Record<ApprovalUse, string> = {
  'in-use': 'In use',
  changed: 'Not in use: this server now runs something else, or cannot start',
  unconfigured: 'Not in use: no server of that name runs from here',
};

export function approvalUseText(use: ApprovalUse): string {
  return USE_TEXT[use];
}

/** `your config.json`, or `workspace /home/alex/src/webshop`. */
export function approvalScopeText(scope: string): string {
  return scope === 'user' ? 'your config.json' : `workspace ${scope}`;
}

/** The `trust/forget` request that forgets exactly this approval, whatever else is configured. */
export function forgetParams(
  approval: Pick<StoredApproval, 'scope' | 'server'>,
): ParamsOf<'trust/forget'> {
  return approval.scope === 'user'
    ? { server: approval.server, user: true }
    : { server: approval.server, workspace: approval.scope };
}

/** What the Forget button says to a screen reader: server and scope, as several may share a name. */
export function forgetLabel(approval: StoredApproval): string {
  return `Forget the approval of ${approval.server} from ${approvalScopeText(approval.scope)}`;
}

/** The approvals worth a look first: those nothing uses, then the rest, each group in order. */
export function reviewOrder(approvals: readonly StoredApproval[]): StoredApproval[] {
  const unused = approvals.filter((a) => a.use !== 'in-use');
  return [...unused, ...approvals.filter((a) => a.use === 'in-use')];
}

/** One approval's identity, as the host keys it: scope and server. */
export function approvalKey(approval: Pick<StoredApproval, 'scope' | 'server'>): string {
  return `${approval.scope}\u0000${approval.server}`;
}

/** What the Forget button of pins left without an approval says to a screen reader. */
export function forgetPinsLabel(pins: Pick<StoredApproval, 'scope' | 'server'>): string {
  return `Forget the tool pins of ${pins.server} from ${approvalScopeText(pins.scope)}`;
}

/** What a `trust/forget` did, for the status line. */
export function forgottenText(server: string, result: { launch: boolean; pins: number }): string {
  if (result.launch) {
    return `Forgot the approval of ${server}${result.pins === 0 ? '' : ` and ${pinsText(result.pins)}`}.`;
  }
  if (result.pins > 0) return `Forgot ${pinsText(result.pins)} of ${server}.`;
  return `Nothing of ${server} was left to forget.`;
}

/** `1 tool pin`, `3 tool pins`; empty for none. */
export function pinsText(pins: number): string {
  return pins === 0 ? '' : `${String(pins)} tool ${pins === 1 ? 'pin' : 'pins'}`;
}
