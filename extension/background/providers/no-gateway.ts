/**
 * What the extension's build puts in place of `@ai-sdk/gateway` (wxt.config.ts aliases it here,
 * decision 0028). The `ai` package imports the Vercel AI Gateway as its default provider, for a
 * model named by a string id, and checks errors against the gateway's classes; Switchyard always
 * hands `ai` a model object from the provider the user chose, so none of it ever runs, yet it
 * was 11 KiB gzipped of the worker's bundle (its provider, its schemas and an OIDC client).
 *
 * These are the names `ai` imports (test/invariants/stand-ins.test.ts reads them from `ai`'s
 * own bundle, so an upgrade that imports a new one fails there, and the build fails on a
 * missing export). The error classes keep the gateway's markers, so `isInstance`
 * answers as the real ones would: never true, since no gateway is ever called.
 */

const MARKER = 'vercel.ai.gateway.error';
const ERROR_SYMBOL = Symbol.for(MARKER);
const AUTHENTICATION_SYMBOL = Symbol.for(`${MARKER}.GatewayAuthenticationError`);

function hasMarker(error: unknown, symbol: symbol): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[symbol] === true
  );
}

const NO_GATEWAY =
  'Switchyard is built without the Vercel AI Gateway (decision 0028): pass the chosen ' +
  "provider's model object to `ai`, not a model id string.";

export class GatewayError extends Error {
  static isInstance(error: unknown): boolean {
    return hasMarker(error, ERROR_SYMBOL);
  }
}

export class GatewayAuthenticationError extends GatewayError {
  static override isInstance(error: unknown): boolean {
    return hasMarker(error, ERROR_SYMBOL) && hasMarker(error, AUTHENTICATION_SYMBOL);
  }
}

function unavailable(): never {
  throw new Error(NO_GATEWAY);
}

/** The gateway provider's shape as `ai` reaches it for a string model id: every model throws. */
export interface AbsentGateway {
  (modelId: string): never;
  languageModel(modelId: string): never;
  embeddingModel(modelId: string): never;
  textEmbeddingModel(modelId: string): never;
  imageModel(modelId: string): never;
}

export function createGateway(): AbsentGateway {
  return Object.assign(() => unavailable(), {
    languageModel: unavailable,
    embeddingModel: unavailable,
    textEmbeddingModel: unavailable,
    imageModel: unavailable,
  });
}

export const gateway: AbsentGateway = createGateway();
