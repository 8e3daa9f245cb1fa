import { ApprovalRequestSchema, type ApprovalRequest } from '../../protocol/tools';
import { HostError } from '../shared/host-error';

/**
 * The protocol reason `promise` fails with: `resolved` when it does not fail, and
 * `no HostError: ...` when it fails with something else, so an assertion on the reason shows
 * what happened instead.
 */
export async function reasonOf(promise: Promise<unknown>): Promise<string> {
  const outcome = await promise.then(
    () => ({ failed: false as const }),
    (error: unknown) => ({ failed: true as const, error }),
  );
  if (!outcome.failed) return 'resolved';
  return outcome.error instanceof HostError
    ? outcome.error.reason
    : `no HostError: ${String(outcome.error)}`;
}

/** The approval request an `approval-required` error carries, validated; rethrows anything else. */
export function approvalOf(error: unknown): ApprovalRequest {
  if (!(error instanceof HostError) || error.reason !== 'approval-required') throw error;
  return ApprovalRequestSchema.parse(error.details['approval']);
}
