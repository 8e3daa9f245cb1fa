import { z } from 'zod';
import { ToolUiSchema } from './apps';
import { EXPOSED_TOOL_NAME_PATTERN } from './tool-name';

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

export { EXPOSED_TOOL_NAME_PATTERN };

/**
 * The host's policy for a tool (design D8): `allow` runs without asking, `ask` needs an approval
 * per call, `deny` never runs, `suspended` was allowed but its definition changed since it was
 * approved (D7), so it asks again.
 */
export const ToolPolicyStateSchema = z.enum(['allow', 'ask', 'deny', 'suspended']);
export type ToolPolicyState = z.infer<typeof ToolPolicyStateSchema>;

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
  policy: ToolPolicyStateSchema,
  /**
   * The tool's MCP App, when its definition declares one: the page shown with its results (absent
   * when apps are off for its server) and who may call it. A tool the model may not call costs 0
   * tokens and is left out of every model-facing listing.
   */
  ui: ToolUiSchema.optional(),
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

/** One difference between a pinned tool definition and the one the server lists now (D7). */
export const ToolChangeSchema = z.object({
  field: z.enum(['title', 'description', 'inputSchema', 'annotations']),
  before: z.string(),
  after: z.string(),
});
export type ToolChange = z.infer<typeof ToolChangeSchema>;

/**
 * An approval the user must give for one call (design D8): bound to these exact arguments, once,
 * until `expiresAt`. The extension shows it and re-sends `tools/call` with `{requestId, nonce}`.
 */
export const ApprovalRequestSchema = z.object({
  requestId: z.string().min(1).max(128),
  nonce: z.string().min(1).max(128),
  server: z.string(),
  /** The raw tool name, sanitized for display. */
  tool: z.string(),
  exposedName: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  /** SHA-256 of the canonical JSON of the arguments. */
  argumentsHash: z.string(),
  /** Plain-language warnings: destructive, definition changed, ... */
  warnings: z.array(z.string()),
  /** How the tool's definition changed since it was approved, if it did. */
  changes: z.array(ToolChangeSchema),
  annotations: ToolAnnotationsSchema.optional(),
  /** Epoch milliseconds. */
  expiresAt: z.number(),
});
export type ApprovalRequest = z.infer<typeof ApprovalRequestSchema>;

export const ApprovalTokenSchema = z.object({
  requestId: z.string().min(1).max(128),
  nonce: z.string().min(1).max(128),
});
export type ApprovalToken = z.infer<typeof ApprovalTokenSchema>;
