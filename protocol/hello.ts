import { z } from 'zod';

/**
 * `host/hello`, the first request of every connection, apart from the method table so the host's
 * first stage can answer it without loading the rest of the protocol (decision 0030).
 */

/** Bumped on any incompatible change to the method table. Checked by `host/hello`. */
export const PROTOCOL_VERSION = 1;

export const HelloParamsSchema = z.object({
  protocolVersion: z.number().int(),
  client: z.object({ name: z.string().max(128), version: z.string().max(64) }),
});

export const HelloResultSchema = z.object({
  protocolVersion: z.number().int(),
  host: z.object({ name: z.string(), version: z.string() }),
  /** The host's state directory ($SWITCHYARD_HOME). */
  home: z.string(),
  /** Problems found while loading the configuration, as human-readable lines. */
  configWarnings: z.array(z.string()),
});

export const helloMethods = {
  'host/hello': { params: HelloParamsSchema, result: HelloResultSchema },
} as const;
