import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthFlowError } from './auth-errors';
import type { UserAgent } from './user-agent';

/** How long the CLI waits for the browser to come back. */
export const LOOPBACK_TIMEOUT_MS = 5 * 60_000;
const CALLBACK_PATH = '/callback';

export interface LoopbackOptions {
  /** Shows the authorization URL to the user (prints it, maybe opens a browser). */
  readonly show: (authorizationUrl: URL) => void;
  readonly timeoutMs?: number;
}

export interface LoopbackUserAgent extends UserAgent {
  close(): Promise<void>;
}

const PAGE = (title: string, text: string): string =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font:16px system-ui;margin:3em"><h1>${title}</h1><p>${text}</p></body>`;

/**
 * The CLI's user agent (RFC 8252 §7.3): an HTTP listener on 127.0.0.1 at a port the OS picks,
 * serving only `GET /callback`. It answers the browser with a small page, resolves with the
 * callback URL once one carries the `state` of the authorization URL it was given (a request
 * with another state is answered 400 and waited past: a page cannot end the sign-in by guessing
 * the port), and closes on success, timeout or `close()`.
 */
export async function startLoopbackUserAgent(options: LoopbackOptions): Promise<LoopbackUserAgent> {
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const redirectUri = `http://127.0.0.1:${port}${CALLBACK_PATH}`;
  let closed = false;
  const close = (): Promise<void> =>
    new Promise<void>((resolve) => {
      closed = true;
      server.closeAllConnections();
      server.close(() => {
        resolve();
      });
    });

  return {
    redirectUri,
    close,
    authorize: (authorizationUrl) =>
      new Promise<string>((resolve, reject) => {
        if (closed) {
          reject(
            new AuthFlowError('timeout', 'the sign-in receiver is closed; run the command again.'),
          );
          return;
        }
        const expectedState = authorizationUrl.searchParams.get('state');
        const timer = setTimeout(() => {
          void close();
          reject(
            new AuthFlowError(
              'timeout',
              `no answer from the browser within ${Math.round((options.timeoutMs ?? LOOPBACK_TIMEOUT_MS) / 1000)} s; run the command again.`,
            ),
          );
        }, options.timeoutMs ?? LOOPBACK_TIMEOUT_MS);
        server.on('request', (req, res) => {
          const url = new URL(req.url ?? '/', redirectUri);
          res.setHeader('content-type', 'text/html; charset=utf-8');
          res.setHeader('cache-control', 'no-store');
          if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
            res.statusCode = 404;
            res.end(PAGE('Not found', 'This address only receives Switchyard sign-ins.'));
            return;
          }
          if (expectedState === null || url.searchParams.get('state') !== expectedState) {
            res.statusCode = 400;
            res.end(
              PAGE(
                'Not this sign-in',
                'This answer does not belong to the sign-in Switchyard is waiting for.',
              ),
            );
            return;
          }
          const failed = url.searchParams.has('error');
          res.end(
            failed
              ? PAGE(
                  'Sign-in not completed',
                  'Switchyard got the answer; see the terminal. You can close this tab.',
                )
              : PAGE(
                  'Signed in',
                  'Switchyard got the answer; you can close this tab and go back to the terminal.',
                ),
          );
          clearTimeout(timer);
          resolve(`${redirectUri}${url.search}`);
          void close();
        });
        options.show(authorizationUrl);
      }),
  };
}
