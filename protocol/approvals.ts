import { z } from 'zod';

/**
 * The launch approvals trust.json holds (design D6), for review: what each one let run, and
 * whether a configured server still uses it. An approval whose server left the configuration is
 * harmless until an entry of that name and exactly that launch comes back, but the user should be
 * able to see and forget it (`trust/forget`).
 */

/**
 * `in-use`: the configured server of that name and scope would run exactly what was approved;
 * `changed`: it is configured, but what it would run differs (it waits for a new approval), or
 * its command is not found; `unconfigured`: no configured server of that name has that scope
 * (also a server of yours whose launch a workspace file now overrides: its scope is then the
 * workspace's).
 */
export const ApprovalUseSchema = z.enum(['in-use', 'changed', 'unconfigured']);
export type ApprovalUse = z.infer<typeof ApprovalUseSchema>;

export const StoredApprovalSchema = z.object({
  server: z.string(),
  /** `user`, or the workspace folder the approval belongs to. */
  scope: z.string(),
  fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
  /** ISO 8601. */
  approvedAt: z.string(),
  /**
   * What it let run: the program, shown literally, or a remote server's URL with credential-named
   * query values masked (`displayUrl`).
   */
  executable: z.string(),
  args: z.array(z.string()),
  use: ApprovalUseSchema,
  /** Tool definitions pinned under the same server and scope, forgotten with it. */
  pins: z.number().int().nonnegative(),
});
export type StoredApproval = z.infer<typeof StoredApprovalSchema>;

/**
 * Tool pins of a server that has no launch approval in that scope: a revoke keeps a server's pins
 * (so a re-approved server cannot change its tools unseen), and they stay after its entry is
 * taken out of the configuration by hand. A later server of that name would find its tools
 * suspended as changed; `trust/forget` removes them.
 */
export const UnapprovedPinsSchema = z.object({
  server: z.string(),
  scope: z.string(),
  pins: z.number().int().positive(),
});
export type UnapprovedPins = z.infer<typeof UnapprovedPinsSchema>;

export const approvalMethods = {
  'trust/list': {
    params: z.object({}).optional(),
    /**
     * Every stored launch approval, and every server with pins but no approval, each by scope
     * (`user` first), then server name.
     */
    result: z.object({
      approvals: z.array(StoredApprovalSchema),
      unapprovedPins: z.array(UnapprovedPinsSchema),
    }),
  },
};
