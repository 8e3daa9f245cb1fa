import { describe, expect, test } from 'vitest';
import { GatewayAuthenticationError, GatewayError, createGateway, gateway } from './no-gateway';
import { SpanStatusCode, context, trace } from './no-telemetry';

// What the built extension runs in place of @ai-sdk/gateway and @opentelemetry/api (decision
// 0028). Dangerous direction: a stand-in that answers differently from the real package on a
// path `ai` takes on every call (error checks, context.with), silently changing a turn.

describe('the gateway stand-in', () => {
  test.each([
    ['languageModel', () => gateway.languageModel('openai/gpt-5')],
    ['embeddingModel', () => gateway.embeddingModel('m')],
    ['imageModel', () => gateway.imageModel('m')],
    ['a call', () => gateway('m')],
    ['a new gateway', () => createGateway().languageModel('m')],
  ])('a model from it (%s) throws, naming what to pass instead', (_name, use) => {
    expect(use).toThrow(/built without the Vercel AI Gateway.*model object/u);
  });

  test('an error is a gateway error only when it carries the gateway markers, as in the real one', () => {
    const marked = Object.assign(new Error('x'), { [Symbol.for('vercel.ai.gateway.error')]: true });
    const authentication = Object.assign(new Error('x'), {
      [Symbol.for('vercel.ai.gateway.error')]: true,
      [Symbol.for('vercel.ai.gateway.error.GatewayAuthenticationError')]: true,
    });
    expect(GatewayError.isInstance(new Error('HTTP 500'))).toBe(false);
    expect(GatewayError.isInstance(undefined)).toBe(false);
    expect(GatewayError.isInstance(marked)).toBe(true);
    expect(GatewayAuthenticationError.isInstance(marked)).toBe(false);
    expect(GatewayAuthenticationError.isInstance(authentication)).toBe(true);
  });
});

describe('the OpenTelemetry stand-in', () => {
  test('context.with runs the function with its this and arguments, and returns its result', () => {
    const self = { base: 40 };
    const result = context.with(
      context.active(),
      function (this: typeof self, a: number, b: number) {
        return this.base + a + b;
      },
      self,
      1,
      1,
    );
    expect(result).toBe(42);
  });

  test('an awaited step passes through unchanged', async () => {
    await expect(context.with(context.active(), () => Promise.resolve('done'))).resolves.toBe(
      'done',
    );
  });

  test('has the status codes ai records and no tracer', () => {
    expect(SpanStatusCode.ERROR).toBe(2);
    expect(() => trace.getTracer()).toThrow(/without OpenTelemetry/u);
  });
});
