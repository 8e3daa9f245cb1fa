import { HostErrorDataSchema, type ErrorReason } from '../../protocol/errors';
import { JsonRpcErrorCode, type JsonRpcErrorObject } from '../../protocol/jsonrpc';
import type { RequestMethod } from '../../protocol/methods';

/**
 * The two ways a host request fails, as one discriminated union (`kind`): the host answered with
 * an error (`HostRequestError`, its `data.reason` kept), or the request never got an answer on
 * this side (`ClientRequestError`: the port dropped, it timed out, the caller cancelled it).
 * Callers branch on `reason`, never on `message` (docs/protocol.md, Errors).
 */

/** The host answered with a JSON-RPC error. */
export class HostRequestError extends Error {
  readonly kind = 'host';

  constructor(
    readonly method: RequestMethod,
    readonly reason: ErrorReason,
    readonly code: number,
    message: string,
    /** The error's `data`, reason included; extra members depend on the reason. */
    readonly data: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = 'HostRequestError';
  }
}

/**
 * Why a request got no answer from the host:
 * - `not-connected`: the host is not installed, crashed, or speaks another protocol version;
 * - `disconnected`: the port dropped while the request was pending (it may or may not have run);
 * - `timeout`: no answer within the client's deadline (the host was sent a cancel);
 * - `cancelled`: the caller cancelled it (`cancel(id)` or its AbortSignal);
 * - `invalid-response`: the host answered with something the protocol table does not allow.
 */
export type ClientFailureReason =
  'not-connected' | 'disconnected' | 'timeout' | 'cancelled' | 'invalid-response';

export class ClientRequestError extends Error {
  readonly kind = 'client';

  constructor(
    readonly method: RequestMethod,
    readonly reason: ClientFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'ClientRequestError';
  }
}

export type RequestFailure = HostRequestError | ClientRequestError;

export function isRequestFailure(error: unknown): error is RequestFailure {
  return error instanceof HostRequestError || error instanceof ClientRequestError;
}

/** The reason an error without a valid `data.reason` stands for, from its JSON-RPC code. */
function reasonFromCode(code: number): ErrorReason {
  switch (code) {
    case JsonRpcErrorCode.ParseError:
    case JsonRpcErrorCode.InvalidRequest:
      return 'invalid-request';
    case JsonRpcErrorCode.MethodNotFound:
      return 'unknown-method';
    case JsonRpcErrorCode.InvalidParams:
      return 'invalid-params';
    default:
      return 'internal';
  }
}

/** Builds the typed error for one error response. Every host error should carry `data.reason`. */
export function hostRequestError(
  method: RequestMethod,
  error: JsonRpcErrorObject,
): HostRequestError {
  const parsed = HostErrorDataSchema.safeParse(error.data);
  if (parsed.success) {
    return new HostRequestError(method, parsed.data.reason, error.code, error.message, parsed.data);
  }
  const reason = reasonFromCode(error.code);
  return new HostRequestError(method, reason, error.code, error.message, { reason });
}
