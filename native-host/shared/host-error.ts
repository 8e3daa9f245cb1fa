import type { ErrorReason } from '../../protocol/errors';

/**
 * A failure with a protocol reason. Handlers throw it; the dispatcher turns it into a JSON-RPC
 * error whose `data` is `{ reason, ...details }`. Messages are for people: say what to do next.
 */
export class HostError extends Error {
  override readonly name = 'HostError';

  constructor(
    readonly reason: ErrorReason,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}
