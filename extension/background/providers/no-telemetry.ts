/**
 * What the extension's build puts in place of `@opentelemetry/api` (wxt.config.ts aliases it
 * here, decision 0028). `ai` traces through it only when a call passes
 * `experimental_telemetry: { isEnabled: true }`, which Switchyard never does; otherwise it still
 * runs each step inside `context.with(context.active(), ...)`, which with no OpenTelemetry SDK
 * registered (there is none in the extension) just calls the function. That is what this does.
 *
 * These are the names `ai` imports (test/invariants/stand-ins.test.ts reads them from `ai`'s
 * own bundle, and the build fails on a missing export).
 */

/** OpenTelemetry's span status codes, as `ai` records an error on a span. */
export const SpanStatusCode = { UNSET: 0, OK: 1, ERROR: 2 } as const;

/** The empty context OpenTelemetry's API answers with when no context manager is registered. */
const ROOT_CONTEXT: Readonly<Record<string, never>> = Object.freeze({});

export const context = {
  active(): Readonly<Record<string, never>> {
    return ROOT_CONTEXT;
  },
  with<A extends unknown[], R>(
    _context: unknown,
    fn: (...args: A) => R,
    thisArg?: unknown,
    ...args: A
  ): R {
    return fn.apply(thisArg, args);
  },
};

export const trace = {
  getTracer(): never {
    throw new Error(
      'Switchyard is built without OpenTelemetry (decision 0028): model calls are not traced.',
    );
  },
};
