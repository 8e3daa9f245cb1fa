/**
 * The native connection's state, one discriminated union switched on exhaustively (style habit 4),
 * and the pure reconnect backoff. The host client drives the transitions:
 *
 *   disconnected ──connect()──► connecting ──hello ok──► connected
 *        ▲                        │  │  │                     │ port drops
 *        │ close()                │  │  └─hello refused──► protocol-mismatch (no retry: update both)
 *        │                        │  └─host missing──► not-installed (no retry until connect())
 *        │                        └─drop, hello timeout──► crashed ◄───────────┘
 *        │                                                  │ after retryInMs (null: gave up)
 *        └──────────────────────────────────────────────────┴──► connecting
 */
export type ConnectionState =
  | { readonly state: 'connecting'; readonly attempt: number }
  | {
      readonly state: 'connected';
      readonly hostVersion: string;
      /** The host's state directory ($SWITCHYARD_HOME). */
      readonly home: string;
      /** Configuration problems the host found, one line each (show them; they say what to fix). */
      readonly configWarnings: readonly string[];
    }
  | { readonly state: 'not-installed'; readonly message: string }
  | {
      readonly state: 'crashed';
      readonly message: string;
      /** Milliseconds until the next automatic attempt; null once the client gave up. */
      readonly retryInMs: number | null;
    }
  | {
      readonly state: 'protocol-mismatch';
      /** Protocol versions the host speaks. */
      readonly host: readonly number[];
      /** The version this extension speaks. */
      readonly extension: number;
      readonly message: string;
    }
  | { readonly state: 'disconnected' };

export type ConnectionStateName = ConnectionState['state'];

/** Reconnect schedule after the host crashed: `min(initialMs * 2^(n-1), maxMs)` for the nth retry. */
export interface BackoffPolicy {
  readonly initialMs: number;
  readonly maxMs: number;
  /** Retries in a row before giving up (state `crashed` with `retryInMs: null`). */
  readonly maxAttempts: number;
  /** A connection that lasted this long counts as stable: the retry count starts over. */
  readonly stableMs: number;
}

/** 1, 2, 4, 8, 16, 30, 30, 30 s, then give up: about two minutes of a host that cannot stay up. */
export const DEFAULT_BACKOFF: BackoffPolicy = {
  initialMs: 1_000,
  maxMs: 30_000,
  maxAttempts: 8,
  stableMs: 60_000,
};

/** Delay before retry number `retry` (1-based), or null when the policy has given up. */
export function backoffDelayMs(policy: BackoffPolicy, retry: number): number | null {
  if (retry < 1 || retry > policy.maxAttempts) return null;
  return Math.min(policy.initialMs * 2 ** (retry - 1), policy.maxMs);
}

function assertNever(value: never): never {
  throw new Error(`Unexpected connection state: ${JSON.stringify(value)}`);
}

/** One line for the user that says what is wrong and what to do next. */
export function describeConnection(state: ConnectionState): string {
  switch (state.state) {
    case 'connecting':
      return 'Connecting to the Switchyard host…';
    case 'connected':
      return `Connected to Switchyard host ${state.hostVersion}.`;
    case 'not-installed':
      return `Switchyard host not found: run \`switchyard install\`, then retry. (${state.message})`;
    case 'crashed':
      return state.retryInMs === null
        ? `The Switchyard host keeps stopping (${state.message}). Run \`switchyard doctor\`, then retry.`
        : `The Switchyard host stopped (${state.message}); reconnecting in ${Math.ceil(state.retryInMs / 1000)} s.`;
    case 'protocol-mismatch':
      return `The Switchyard host speaks protocol ${state.host.join(', ')}, this extension ${state.extension}: update both to the same release (run \`switchyard install\` again).`;
    case 'disconnected':
      return 'Not connected to the Switchyard host.';
    default:
      return assertNever(state);
  }
}
