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

/**
 * The Node that runs the host, and whether its release line still gets security fixes
 * (native-host/shared/node-support.ts, Node's release schedule). The extension warns when it no
 * longer does.
 */
export const HostRuntimeSchema = z.object({
  /** `process.versions.node`: `20.20.2`. */
  node: z.string().max(32),
  /** The line's last maintained day (YYYY-MM-DD); null for a line the host's table does not know. */
  endOfLife: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .nullable(),
  /** Whether the host's today is past that day. */
  ended: z.boolean(),
  /** The oldest long-term-support line still maintained, to suggest; null if none is known. */
  suggested: z.number().int().positive().nullable(),
});

export type HostRuntime = z.infer<typeof HostRuntimeSchema>;

export const HelloResultSchema = z.object({
  protocolVersion: z.number().int(),
  host: z.object({ name: z.string(), version: z.string() }),
  /** The host's state directory ($SWITCHYARD_HOME). */
  home: z.string(),
  /** Problems found while loading the configuration, as human-readable lines. */
  configWarnings: z.array(z.string()),
  /** Absent from hosts older than this field, and when the host cannot read its own version. */
  runtime: HostRuntimeSchema.optional(),
});

export const helloMethods = {
  'host/hello': { params: HelloParamsSchema, result: HelloResultSchema },
} as const;
