import { z } from 'zod';

/**
 * The closed set of reasons a host request can fail for. Clients branch on `data.reason`, never on
 * the human-readable message. Adding a reason is a protocol change: document it in docs/protocol.md.
 */
export const ErrorReasonSchema = z.enum([
  /** The frame was not JSON, not a JSON-RPC 2.0 message, or reused an id still in flight. */
  'invalid-request',
  /** Params failed validation; `data.issues` says where. */
  'invalid-params',
  /** The method is not in the method table. */
  'unknown-method',
  /** `host/hello` was not the first request, or named an unsupported protocol version. */
  'protocol-mismatch',
  /** No configured server has that name. */
  'unknown-server',
  /** No exposed tool has that name (or the active profile hides it). */
  'unknown-tool',
  /** The tool's server is not running (stopped, starting, crashed, failed). */
  'server-unavailable',
  /** The server process exited while the request was pending; `data.exit` and `data.stderr` say how. */
  'server-exited',
  /** The server did not answer within the per-call timeout. */
  'timeout',
  /**
   * The server does not offer what was asked (no `resources`, `prompts` or `completions`
   * capability, or no resource subscriptions): nothing was sent to it.
   */
  'not-supported',
  /** The caller cancelled the request. */
  'cancelled',
  /** The server answered with a JSON-RPC error (its message is sanitized untrusted text). */
  'server-error',
  /** The result could not be made to fit in one host -> browser frame. */
  'result-too-large',
  /**
   * Reserved for methods that write the configuration: the file is unreadable or malformed
   * (`data.file`, `data.line`, `data.key`). Loading problems are reported by `host/hello`.
   */
  'config-invalid',
  /** The tool's policy is `ask`: `data.approval` is the ApprovalRequest to show the user. */
  'approval-required',
  /** The approval sent with the call is unknown, expired, used, or for other arguments. */
  'approval-invalid',
  /** The tool's policy is `deny`: it never reaches its server. */
  'denied',
  /**
   * `trust/approve` quoted a fingerprint that is not what would run now: show the new request.
   * Also `import/apply` quoting a digest that is not what the client's file holds now.
   */
  'fingerprint-mismatch',
  /**
   * `trust/approve` named a server that is not waiting for approval; `elicitation/respond` a card
   * that is no longer open.
   */
  'not-pending',
  /** `servers/add` named a server config.json already has (send `replace` to replace it). */
  'already-exists',
  /** `servers/add` or `servers/remove` named a server a workspace file defines: edit that file. */
  'workspace-server',
  /** `tools/list` or `tools/call` named a profile id the host does not have (removed?). */
  'unknown-profile',
  /**
   * Another Switchyard process (a second browser's host, the CLI) held the lock of a file this
   * request writes for too long; nothing was changed: try again. `data.file` is the lock file.
   */
  'busy',
  /**
   * `auth/begin` or `auth/complete` could not sign in: `data.kind` says why (SignInFailureKind),
   * the message what to do. Nothing was stored.
   */
  'sign-in-failed',
  /** The host failed unexpectedly; the message says what to report. */
  'internal',
]);
export type ErrorReason = z.infer<typeof ErrorReasonSchema>;

/** The `data` member of every Switchyard error response. Extra members depend on the reason. */
export const HostErrorDataSchema = z.looseObject({
  reason: ErrorReasonSchema,
});
export type HostErrorData = z.infer<typeof HostErrorDataSchema>;
