import { z } from 'zod';

/** How a server process ended: exactly one of code and signal is non-null once it has exited. */
export const ExitInfoSchema = z.object({
  code: z.number().int().nullable(),
  signal: z.string().nullable(),
});
export type ExitInfo = z.infer<typeof ExitInfoSchema>;

/** Why a server is not running and will not be retried without the user acting. */
export const FailureReasonSchema = z.enum([
  'command-not-found',
  'spawn-failed',
  'handshake-timeout',
  'handshake-failed',
  'crash-loop',
]);
export type FailureReason = z.infer<typeof FailureReasonSchema>;

/** A server's lifecycle state. One discriminated union, switched on exhaustively by both sides. */
export const ServerStateSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('stopped') }),
  z.object({ state: z.literal('starting'), attempt: z.number().int().nonnegative() }),
  z.object({
    state: z.literal('running'),
    pid: z.number().int(),
    handshakeMs: z.number().nonnegative(),
    protocolVersion: z.string(),
    serverInfo: z.object({ name: z.string(), version: z.string() }),
  }),
  z.object({
    state: z.literal('crashed'),
    exit: ExitInfoSchema,
    restarts: z.number().int().nonnegative(),
    /** Milliseconds until the next automatic restart. */
    retryInMs: z.number().nonnegative(),
  }),
  z.object({
    state: z.literal('failed'),
    reason: FailureReasonSchema,
    message: z.string(),
    exit: ExitInfoSchema.optional(),
  }),
]);
export type ServerState = z.infer<typeof ServerStateSchema>;
export type ServerStateName = ServerState['state'];

export const ProvenanceSchema = z.enum(['user', 'workspace']);
export type Provenance = z.infer<typeof ProvenanceSchema>;

/** One configured server as the UI and the CLI see it. */
export const ServerSummarySchema = z.object({
  name: z.string(),
  provenance: ProvenanceSchema,
  /** The command as configured (literal, before PATH resolution). */
  command: z.string(),
  args: z.array(z.string()),
  /** Absolute executable the host resolved, or null when it could not be found. */
  resolvedCommand: z.string().nullable(),
  cwd: z.string().nullable(),
  /** Names of the env keys the entry sets (never their values). */
  envKeys: z.array(z.string()),
  status: ServerStateSchema,
  toolCount: z.number().int().nonnegative(),
  /** Estimated model-facing tokens of this server's tool listing. */
  tokens: z.number().int().nonnegative(),
});
export type ServerSummary = z.infer<typeof ServerSummarySchema>;
