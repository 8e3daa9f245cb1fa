import { SdkError, SdkErrorCode, type Client } from '@modelcontextprotocol/client';
import { connectWithDeadline } from './request-deadline';
import type { Transport } from '@modelcontextprotocol/client';
import type { NegotiationMemory } from './runtime-types';

/**
 * One handshake with the protocol revision negotiated (decision 0016): the SDK's `'auto'` mode
 * probes with `server/discover` and falls back to `initialize`; a server remembered as legacy
 * skips the probe. What it settles on is remembered for the next start of the same launch.
 */

export type NegotiatedHandshake =
  | { readonly kind: 'connected' }
  /** The connection closed during the probe: start the server again with `skipProbe`. */
  | { readonly kind: 'exited-on-probe' }
  | { readonly kind: 'failed'; readonly timedOut: boolean; readonly error: unknown };

export interface NegotiateOptions {
  /** For the whole handshake, probe included. */
  readonly timeoutMs: number;
  readonly memory: NegotiationMemory | undefined;
  /** Go straight to `initialize` (the server exited on the last probe). */
  readonly skipProbe: boolean;
}

/**
 * How long the probe waits for an answer before the server counts as a 2025-era one that
 * ignores unknown requests: half the handshake, leaving the other half for `initialize`.
 */
export function probeTimeoutMs(handshakeTimeoutMs: number): number {
  return Math.floor(handshakeTimeoutMs / 2);
}

export async function negotiate(
  client: Client,
  transport: Transport,
  options: NegotiateOptions,
): Promise<NegotiatedHandshake> {
  const known = options.memory?.knownLegacy() === true;
  const prior = options.skipProbe || known ? ({ kind: 'legacy' } as const) : undefined;
  const handshake = await connectWithDeadline(client, transport, options.timeoutMs, prior);
  if (handshake.ok) {
    if (!known) options.memory?.settled(client.getProtocolEra() ?? 'legacy');
    return { kind: 'connected' };
  }
  // Only a process can exit on the probe and be started again; over HTTP a failed probe is the
  // server's answer (or an outage), and the SDK has already classified it.
  const stdio = 'pid' in transport && 'stderr' in transport;
  if (stdio && prior === undefined && !handshake.timedOut && failedInProbe(handshake.error)) {
    return { kind: 'exited-on-probe' };
  }
  return { kind: 'failed', timedOut: handshake.timedOut, error: handshake.error };
}

/**
 * Whether a handshake failed in the `server/discover` probe itself. On a stdio transport the SDK
 * falls back to `initialize` when the probe goes unanswered, but not when the connection closes
 * during it: a 2025-era server built on an SDK that exits on any request before `initialize` (or
 * one that died at start). The SDK's own stdio transport answers that by probing on a second,
 * throwaway process, every time; the host starts the server once more only when this happens.
 */
export function failedInProbe(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed;
}
