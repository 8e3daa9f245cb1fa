import { randomBytes as cryptoRandomBytes, timingSafeEqual } from 'node:crypto';
import { canonicalHash } from '../shared/canonical-json';

/**
 * Approvals bound to one call (design D8). When policy says `ask`, the host issues a request with
 * a random id, a random nonce and a hash of the exact arguments the card shows; the extension
 * re-sends the call with `{ requestId, nonce }` once the user clicks Allow. The host runs it only
 * if that request is pending, unexpired, for the same tool and the same arguments, and only once.
 * The same tool means the same exposed name, on the same server, under the same raw name, with
 * the same definition (the hash its pin would have): a name that was rebuilt to point elsewhere
 * while the card was open, or a definition the server changed under it, is not what the user saw.
 * So an approval cannot be replayed, moved to another tool, or stretched to arguments the user
 * did not see (a model that edits its call after the click gets a new card).
 *
 * Fail closed: anything not positively matched is refused, and redeem never throws.
 */

/** How long the user has to decide. Long enough to read a card, short enough to go stale. */
export const DEFAULT_APPROVAL_TTL_MS = 5 * 60_000;
/** Pending requests kept; issuing one more forgets the oldest. */
export const DEFAULT_MAX_PENDING_APPROVALS = 256;
/** Redeemed ids remembered so a replay is named as one; older replays are refused as unknown. */
export const MAX_REMEMBERED_REDEEMED = 1_024;
/** 128 bits each for the request id and the nonce: unguessable, and independent of each other. */
export const APPROVAL_TOKEN_BYTES = 16;

/** The tool a call is for, as the approval binds it. */
export interface ApprovalTarget {
  readonly server: string;
  /** The tool's raw name on its server. */
  readonly tool: string;
  readonly exposedName: string;
  /** The hash of the tool's definition now (the tool pin's). */
  readonly definitionHash: string;
}

/** One pending approval: the tool the card showed (`ApprovalTarget`) and the call's terms. */
export interface ApprovalRequest extends ApprovalTarget {
  /** Names the request; not secret (it may be logged and shown). */
  readonly requestId: string;
  /** The secret half: only the party that received the request can redeem it. */
  readonly nonce: string;
  /** A private copy of the arguments as issued (`{}` when the call had none). */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** approvalArgumentsHash of `arguments`. */
  readonly argumentsHash: string;
  /** What the card should say besides the call (policy warnings, e.g. `destructive`). */
  readonly warnings: readonly string[];
  /** Epoch ms; the request is expired from this instant on. */
  readonly expiresAt: number;
}

export interface ApprovalCall extends ApprovalTarget {
  readonly arguments: Readonly<Record<string, unknown>> | undefined;
  readonly warnings: readonly string[];
}

export interface ApprovalToken {
  readonly requestId: string;
  readonly nonce: string;
}

export type RedeemFailure =
  'unknown' | 'expired' | 'replayed' | 'nonce-mismatch' | 'tool-mismatch' | 'arguments-mismatch';

export type RedeemResult =
  { ok: true; request: ApprovalRequest } | { ok: false; reason: RedeemFailure };

export interface ApprovalLedgerOptions {
  /** Epoch ms. Default Date.now. */
  readonly now?: () => number;
  /** Default crypto.randomBytes. Must return `n` bytes. */
  readonly randomBytes?: (n: number) => Buffer;
  /** Default DEFAULT_APPROVAL_TTL_MS. */
  readonly ttlMs?: number;
  /** Default DEFAULT_MAX_PENDING_APPROVALS. */
  readonly maxPending?: number;
}

/**
 * SHA-256 over the canonical JSON of `args` (`undefined` counts as `{}`): key order does not
 * matter, any other change does (`1` vs `"1"`, an added or missing key). Throws TypeError for
 * values JSON cannot carry.
 */
export function approvalArgumentsHash(args: Readonly<Record<string, unknown>> | undefined): string {
  return canonicalHash(args ?? {});
}

interface Redeemed {
  readonly nonce: string;
}

/**
 * The host's pending approvals, in memory (an approval does not outlive the host process).
 * Bounded: at most `maxPending` pending requests (oldest forgotten first) and
 * MAX_REMEMBERED_REDEEMED redeemed ids.
 */
export class ApprovalLedger {
  private readonly now: () => number;
  private readonly randomBytes: (n: number) => Buffer;
  private readonly ttlMs: number;
  private readonly maxPending: number;
  /** Insertion order is issue order, so the first key is the oldest. */
  private readonly pending = new Map<string, ApprovalRequest>();
  private readonly redeemed = new Map<string, Redeemed>();

  /** Throws RangeError for a ttlMs or maxPending that is not a positive (integer) number. */
  constructor(options: ApprovalLedgerOptions = {}) {
    this.now = options.now ?? Date.now;
    this.randomBytes = options.randomBytes ?? cryptoRandomBytes;
    this.ttlMs = options.ttlMs ?? DEFAULT_APPROVAL_TTL_MS;
    this.maxPending = options.maxPending ?? DEFAULT_MAX_PENDING_APPROVALS;
    if (!(Number.isFinite(this.ttlMs) && this.ttlMs > 0)) {
      throw new RangeError(`ttlMs must be a positive number of milliseconds, not ${this.ttlMs}`);
    }
    if (!(Number.isSafeInteger(this.maxPending) && this.maxPending > 0)) {
      throw new RangeError(`maxPending must be a positive integer, not ${this.maxPending}`);
    }
  }

  /**
   * Records a call the user is about to be asked about and returns what to show and send.
   * The arguments are copied first and the copy is hashed, so the request shows exactly what was
   * hashed and later changes to the caller's object change neither. Throws if the arguments are
   * not JSON (a DOMException or TypeError; they came from JSON, so that is a host bug), and
   * Error if randomBytes keeps returning ids already in use.
   */
  issue(call: ApprovalCall): ApprovalRequest {
    const args = structuredClone(call.arguments ?? {});
    const argumentsHash = approvalArgumentsHash(args);
    const requestId = this.freshId();
    const request: ApprovalRequest = {
      requestId,
      nonce: this.token(),
      server: call.server,
      tool: call.tool,
      exposedName: call.exposedName,
      definitionHash: call.definitionHash,
      arguments: args,
      argumentsHash,
      warnings: [...call.warnings],
      expiresAt: this.now() + this.ttlMs,
    };
    while (this.pending.size >= this.maxPending) {
      const oldest = this.pending.keys().next();
      if (oldest.done === true) break;
      this.pending.delete(oldest.value);
    }
    this.pending.set(requestId, request);
    return request;
  }

  /**
   * Accepts `token` for `call` at most once. Checks, in order: the id is known (`unknown`), the
   * nonce is right (`nonce-mismatch`; constant-time), it was not used (`replayed`), it has not
   * expired (`expired`: now >= expiresAt), the tool is the same (`tool-mismatch`: exposed name,
   * server, raw name and definition hash), the arguments hash the same (`arguments-mismatch`).
   * The nonce comes before everything that describes the request, so without it a caller learns
   * only "unknown" or "wrong nonce".
   *
   * Only success consumes the request. A failure leaves it redeemable: the binding already makes
   * it useless for any other call, and consuming on failure would let anyone who can send a
   * guess cancel the user's click. `call` is the tool the name resolves to now: a redeem succeeds
   * only while that is the tool the card showed.
   */
  redeem(
    token: ApprovalToken,
    call: ApprovalTarget & { readonly arguments: Record<string, unknown> | undefined },
  ): RedeemResult {
    const request = this.pending.get(token.requestId);
    if (request === undefined) {
      const used = this.redeemed.get(token.requestId);
      if (used === undefined) return { ok: false, reason: 'unknown' };
      return sameSecret(token.nonce, used.nonce)
        ? { ok: false, reason: 'replayed' }
        : { ok: false, reason: 'nonce-mismatch' };
    }
    if (!sameSecret(token.nonce, request.nonce)) return { ok: false, reason: 'nonce-mismatch' };
    if (this.now() >= request.expiresAt) return { ok: false, reason: 'expired' };
    if (!sameTarget(call, request)) return { ok: false, reason: 'tool-mismatch' };
    if (hashOrUndefined(call.arguments) !== request.argumentsHash) {
      return { ok: false, reason: 'arguments-mismatch' };
    }
    this.pending.delete(request.requestId);
    this.remember(request);
    return { ok: true, request };
  }

  /** The user denied (or the call was abandoned): the request can never be redeemed; later
   * attempts are refused as `unknown`. Unknown ids are ignored. */
  cancel(requestId: string): boolean {
    return this.withdraw(requestId) !== undefined;
  }

  /** `cancel`, returning the request that can no longer be redeemed (undefined if none was). */
  withdraw(requestId: string): ApprovalRequest | undefined {
    const request = this.pending.get(requestId);
    this.pending.delete(requestId);
    return request;
  }

  /** Cancels every pending request (the port closed, the user revoked everything). */
  cancelAll(): void {
    this.pending.clear();
  }

  private remember(request: ApprovalRequest): void {
    this.redeemed.set(request.requestId, { nonce: request.nonce });
    while (this.redeemed.size > MAX_REMEMBERED_REDEEMED) {
      const oldest = this.redeemed.keys().next();
      if (oldest.done === true) break;
      this.redeemed.delete(oldest.value);
    }
  }

  private freshId(): string {
    // With a real RNG a repeat never happens; an injected one that repeats must not let a new
    // request take over an old id (or answer for a redeemed one).
    for (let attempt = 0; attempt < 3; attempt++) {
      const id = this.token();
      if (!this.pending.has(id) && !this.redeemed.has(id)) return id;
    }
    throw new Error('randomBytes keeps returning request ids already in use; is it random?');
  }

  private token(): string {
    const bytes = this.randomBytes(APPROVAL_TOKEN_BYTES);
    if (bytes.length !== APPROVAL_TOKEN_BYTES) {
      throw new Error(
        `randomBytes(${APPROVAL_TOKEN_BYTES}) returned ${bytes.length} bytes; approvals need ${APPROVAL_TOKEN_BYTES}`,
      );
    }
    return bytes.toString('hex');
  }
}

/** Whether `a` names the very tool `b` does: same name, server, raw name and definition. */
function sameTarget(a: ApprovalTarget, b: ApprovalTarget): boolean {
  return (
    a.exposedName === b.exposedName &&
    a.server === b.server &&
    a.tool === b.tool &&
    a.definitionHash === b.definitionHash
  );
}

/**
 * Constant-time for equal lengths. A length difference is answered at once: lengths are public
 * (every nonce is 32 hex characters), only the content is secret.
 */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The hash, or undefined for arguments JSON cannot carry: they match no request. */
function hashOrUndefined(args: Record<string, unknown> | undefined): string | undefined {
  try {
    return approvalArgumentsHash(args);
  } catch {
    return undefined;
  }
}
