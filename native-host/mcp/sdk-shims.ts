import type { jsonSchemaValidator } from '@modelcontextprotocol/client';

/**
 * What the bundle gives the v2 client for `@modelcontextprotocol/client/_shims` (the alias is in
 * scripts/build-host.mjs). The SDK's Node shim brings Ajv with every format, about 210 KiB of the
 * bundle loaded at every start, only to build a default output-schema validator; the host always
 * passes its own (runtime-client.ts) and validates nothing through the SDK (design D9), so the
 * default is never built. Should a later SDK build one anyway, it fails loudly here instead of
 * validating quietly with something else. Decision 0016.
 */

/** In Node a `TypeError` from `fetch` is a network error, never CORS (the SDK's Node value). */
export const CORS_IS_POSSIBLE = false;

export class DefaultJsonSchemaValidator implements jsonSchemaValidator {
  getValidator(): never {
    throw new Error('the host does not validate JSON Schemas through the SDK');
  }
}
