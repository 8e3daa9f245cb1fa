import { assertNever } from '../../protocol/guards';
import type { HostRuntime } from '../../protocol/hello';

/**
 * The native connection's state as pages see it: one discriminated union switched on exhaustively
 * (style habit 4). The worker's connection state machine (background/host-connection.ts) drives
 * the transitions, with the backoff of background/backoff.ts:
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
      /** The Node that runs the host; null from a host too old to say. */
      readonly runtime: HostRuntime | null;
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
      return assertNever(state, 'connection state');
  }
}
