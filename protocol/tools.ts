import { z } from 'zod';

/**
 * Tools and call results as the host hands them to the extension. Every string in here that came
 * from an MCP server has been through the host's untrusted-text gate first.
 */

export const ToolAnnotationsSchema = z.object({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;

/** Exposed tool names are legal for every model provider (design D4). */
export const EXPOSED_TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

export const ExposedToolSchema = z.object({
  /** The name the model sees, unique across all servers and built-in tools. */
  name: z.string().regex(EXPOSED_TOOL_NAME_PATTERN),
  /** The configured server name. */
  server: z.string(),
  /** The tool's name as its server reported it (sanitized for display). */
  tool: z.string(),
  title: z.string().optional(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  annotations: ToolAnnotationsSchema.optional(),
  /** Estimated tokens this tool adds to every model turn. */
  tokens: z.number().int().nonnegative(),
});
export type ExposedTool = z.infer<typeof ExposedToolSchema>;

export const TextContentSchema = z.object({ type: z.literal('text'), text: z.string() });
export const ImageContentSchema = z.object({
  type: z.literal('image'),
  data: z.string(),
  mimeType: z.string(),
});
export const AudioContentSchema = z.object({
  type: z.literal('audio'),
  data: z.string(),
  mimeType: z.string(),
});
export const ResourceLinkContentSchema = z.object({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.string(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
});
export const EmbeddedResourceContentSchema = z.object({
  type: z.literal('resource'),
  resource: z.union([
    z.object({ uri: z.string(), mimeType: z.string().optional(), text: z.string() }),
    z.object({ uri: z.string(), mimeType: z.string().optional(), blob: z.string() }),
  ]),
});

export const ContentBlockSchema = z.discriminatedUnion('type', [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ResourceLinkContentSchema,
  EmbeddedResourceContentSchema,
]);
export type ContentBlock = z.infer<typeof ContentBlockSchema>;

/** MCP's CallToolResult, as relayed by the host. `isError` results are tool errors, not failures. */
export const CallToolResultSchema = z.object({
  content: z.array(ContentBlockSchema),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean().optional(),
});
export type CallToolResult = z.infer<typeof CallToolResultSchema>;
