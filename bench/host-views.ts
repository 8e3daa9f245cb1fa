import { z } from 'zod';
import { requestMethods } from '../protocol/methods';
import { ServerSummarySchema } from '../protocol/servers';
import { ExposedToolSchema } from '../protocol/tools';

/**
 * The parts of the host's answers the bench reads, picked from the protocol's own schemas: the
 * fields keep their protocol types, and fields the bench does not use may come and go without
 * breaking it.
 */

export const ServerViewSchema = ServerSummarySchema.pick({ name: true, status: true });
export type ServerView = z.infer<typeof ServerViewSchema>;

export const ServerListViewSchema = z.object({ servers: z.array(ServerViewSchema) });

export const ToolViewSchema = ExposedToolSchema.pick({
  name: true,
  server: true,
  tool: true,
  description: true,
  inputSchema: true,
  tokens: true,
});

export const ToolListingViewSchema = z.object({
  tools: z.array(ToolViewSchema),
  tokens: requestMethods['tools/list'].result.shape.tokens,
});
export type ToolListingView = z.infer<typeof ToolListingViewSchema>;

/** `notifications/servers/changed`, reduced to the same view. */
export const ServerChangedViewSchema = z.object({ server: ServerViewSchema });
