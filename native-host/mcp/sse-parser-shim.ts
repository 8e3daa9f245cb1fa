import type * as Upstream from 'eventsource-parser/stream';

/**
 * What the bundle gives the v2 client for `eventsource-parser/stream` (redirected in
 * scripts/build-host.mjs for the client's imports only). The upstream module declares
 * `class EventSourceParserStream extends TransformStream` at its top level, so merely loading the
 * client made Node build its web streams on every host start, stdio servers only or not: about
 * 10 ms before the first server could connect (decision 0030). Here the upstream module is
 * evaluated when a remote server's response is first parsed as server-sent events.
 */

type Options = ConstructorParameters<typeof Upstream.EventSourceParserStream>[0];

let upstream: typeof Upstream | undefined;
function load(): typeof Upstream {
  // A require, not an import: esbuild keeps the module in the bundle and evaluates it here, on
  // first use, synchronously (a constructor cannot await).
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy evaluation is the point.
  upstream ??= require('eventsource-parser/stream') as typeof Upstream;
  return upstream;
}

/** Called with `new` by the client: a function that returns an object gives that object. */
function lazyEventSourceParserStream(options?: Options): Upstream.EventSourceParserStream {
  return new (load().EventSourceParserStream)(options);
}

export const EventSourceParserStream =
  lazyEventSourceParserStream as unknown as typeof Upstream.EventSourceParserStream;

export { ParseError } from 'eventsource-parser';
