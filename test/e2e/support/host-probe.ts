import type { Worker } from 'playwright-core';
import type { Browser } from 'wxt/browser';
import { z } from 'zod';
import { HOST_NAME } from '../../../protocol/identity';

/**
 * A second native port opened from inside the extension's service worker, independent of the
 * worker's own HostClient: it checks the installed registration the way Chromium applies it
 * (the manifest's path, `allowed_origins` against this extension's origin) and lets a test ask
 * the host something directly. Each probe starts its own host process, which exits when the
 * probe disconnects.
 */

// The `chrome` global as the code below sees it once serialized into the worker. Only the
// callbacks passed to `worker.evaluate` may use it: they run in the browser, not in Node.
declare const chrome: typeof Browser;

export interface ProbeRequest {
  readonly method: string;
  readonly params?: unknown;
}

const ReplySchema = z.object({
  id: z.union([z.number(), z.string(), z.null()]),
  result: z.unknown().optional(),
  error: z
    .object({ code: z.number(), message: z.string(), data: z.unknown().optional() })
    .optional(),
});
export type ProbeReply = z.infer<typeof ReplySchema>;

export type ProbeOutcome =
  | { readonly kind: 'replies'; readonly replies: readonly ProbeReply[] }
  /** The port dropped before every reply came: `runtime.lastError`'s message. */
  | { readonly kind: 'disconnected'; readonly error: string; readonly replies: readonly unknown[] };

/**
 * Sends `requests` one after another on a fresh native port (ids 1, 2, ...), collects each
 * reply (notifications are skipped), then disconnects.
 */
export async function probeHost(
  worker: Worker,
  requests: readonly ProbeRequest[],
): Promise<ProbeOutcome> {
  const outcome = await worker.evaluate(
    ({ hostName, requests: sent }) =>
      new Promise<{ error: string | null; replies: unknown[] }>((resolve) => {
        const replies: unknown[] = [];
        const port = chrome.runtime.connectNative(hostName);
        const sendNext = (): void => {
          const request = sent[replies.length];
          if (request === undefined) {
            port.disconnect();
            resolve({ error: null, replies });
            return;
          }
          port.postMessage({ jsonrpc: '2.0', id: replies.length + 1, ...request });
        };
        port.onMessage.addListener((message: unknown) => {
          if (typeof message !== 'object' || message === null || !('id' in message)) return;
          replies.push(message);
          sendNext();
        });
        port.onDisconnect.addListener(() => {
          resolve({ error: chrome.runtime.lastError?.message ?? 'disconnected', replies });
        });
        sendNext();
      }),
    { hostName: HOST_NAME, requests },
  );
  if (outcome.error !== null) {
    return { kind: 'disconnected', error: outcome.error, replies: outcome.replies };
  }
  return { kind: 'replies', replies: outcome.replies.map((reply) => ReplySchema.parse(reply)) };
}

/** The `host/hello` a probe sends first. */
export function helloRequest(protocolVersion: number): ProbeRequest {
  return {
    method: 'host/hello',
    params: { protocolVersion, client: { name: 'switchyard-e2e-probe', version: '0' } },
  };
}
