import { createServer, type IncomingHttpHeaders } from 'node:http';

/**
 * A real HTTP server on 127.0.0.1 for provider tests: it records each request and answers with
 * a scripted reply (server-sent events, optionally left open, or a JSON error), so adapters are
 * exercised through the genuine fetch and SDK stack rather than a mocked one.
 */

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** The JSON body, parsed (undefined when there was none). */
  readonly body: unknown;
}

export type LoopbackReply =
  /** Sends `events` as an SSE stream; with `hang`, leaves it open afterwards until the client goes. */
  | { readonly kind: 'sse'; readonly events: readonly string[]; readonly hang?: boolean }
  | { readonly kind: 'json'; readonly status: number; readonly body: unknown }
  /** Any other body, e.g. an HTML page for a browser test. */
  | {
      readonly kind: 'text';
      readonly status: number;
      readonly contentType: string;
      readonly body: string;
    };

export interface LoopbackOptions {
  /**
   * Answer CORS preflights (not recorded, not passed to `reply`) and allow every origin, so an
   * extension's service worker or page can call the server as it calls a provider's API.
   */
  readonly cors?: boolean;
}

export interface LoopbackServer {
  /** e.g. `http://127.0.0.1:54321/v1` */
  readonly baseURL: string;
  readonly requests: readonly RecordedRequest[];
  /** Resolves when the client has closed the connection of request `index`. */
  clientClosed(index: number): Promise<void>;
  close(): Promise<void>;
}

/** One SSE event: `data: <json>` (or the literal `[DONE]`), with an optional `event:` line. */
export function sse(data: unknown, event?: string): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${payload}\n\n`;
}

/** A page whose title and text are its own URL: tabs a browser test opens tell themselves apart. */
export function urlTitlePage(request: RecordedRequest): LoopbackReply {
  return {
    kind: 'text',
    status: 200,
    contentType: 'text/html; charset=utf-8',
    body: `<!doctype html><meta charset="utf-8"><title>${request.url}</title><p>${request.url}</p>`,
  };
}

export async function startLoopbackServer(
  reply: (request: RecordedRequest, index: number) => LoopbackReply,
  options: LoopbackOptions = {},
): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const closed: Promise<void>[] = [];
  const server = createServer((req, res) => {
    if (options.cors === true) {
      res.setHeader('access-control-allow-origin', req.headers.origin ?? '*');
      if (req.method === 'OPTIONS') {
        // Echo what the preflight asks for: a `*` would not cover `authorization`.
        res.writeHead(204, {
          'access-control-allow-methods': 'GET, POST, OPTIONS',
          'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '',
          'access-control-allow-private-network': 'true',
          'access-control-max-age': '600',
        });
        res.end();
        return;
      }
    }
    let onClose: () => void = () => undefined;
    closed.push(
      new Promise((resolve) => {
        onClose = resolve;
      }),
    );
    res.on('close', onClose);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: text === '' ? undefined : (JSON.parse(text) as unknown),
      };
      requests.push(recorded);
      const answer = reply(recorded, requests.length - 1);
      if (answer.kind === 'json') {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
        return;
      }
      if (answer.kind === 'text') {
        res.writeHead(answer.status, { 'content-type': answer.contentType });
        res.end(answer.body);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const event of answer.events) res.write(event);
      if (answer.hang !== true) res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on TCP');
  const { port } = address;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    clientClosed: async (index) => {
      const promise = closed[index];
      if (promise === undefined) throw new Error(`no request ${index} yet`);
      await promise;
    },
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
      }),
  };
}
