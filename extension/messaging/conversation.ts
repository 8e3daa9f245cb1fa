import { z } from 'zod';
import { CallToolResultSchema } from '../../protocol/tools';
import { ImageListSchema } from './images';

/**
 * A conversation as plain, serializable data: what the side panel shows, what the worker persists
 * across restarts, and what the provider adapters translate into their own message formats.
 *
 * The pairing invariant: every assistant message with tool calls is followed directly by one
 * `tool` message with exactly one result per call, in any order, and a `tool` message appears
 * nowhere else. Providers refuse a transcript that breaks it (Anthropic: "tool_use ids were found
 * without tool_result blocks"), and since the transcript is re-sent every turn, one unpaired call
 * poisons every later turn of the chat. The worker keeps it (background/pairing.ts).
 */

export const TextPartSchema = z.object({ type: z.literal('text'), text: z.string() });

export const ToolCallPartSchema = z.object({
  type: z.literal('tool-call'),
  /** Unique within the conversation. */
  id: z.string().min(1),
  /** A name legal for every provider (design D4). */
  name: z.string().min(1),
  /** The arguments as the model sent them (`{}` when they were not a JSON object). */
  arguments: z.record(z.string(), z.json()),
});
export type ToolCallPart = z.infer<typeof ToolCallPartSchema>;

/**
 * How a call ended, for the UI; the model reads `content`. `pending` exists only while the call
 * runs: its content already says what the model must read if the worker dies before it finishes.
 */
export const ToolResultStatusSchema = z.enum(['ok', 'error', 'denied', 'cancelled', 'pending']);
export type ToolResultStatus = z.infer<typeof ToolResultStatusSchema>;

/**
 * The MCP App a call's result is shown with (issue 12): the tool's server, its raw name, its
 * `ui://` page, and the result as the host relayed it (what the app is given; the model reads
 * `content`). A result too large to keep with the conversation is kept without its content.
 */
export const ToolAppSchema = z.object({
  server: z.string().min(1).max(256),
  tool: z.string().min(1).max(256),
  uri: z.string().min(1).max(2_048),
  result: CallToolResultSchema,
  /** The result was too large to keep: `result` is empty. */
  truncated: z.boolean().optional(),
});
export type ToolApp = z.infer<typeof ToolAppSchema>;

/** Most characters of an app's result kept with the conversation (JSON). */
export const MAX_APP_RESULT_CHARS = 200_000;

export const ToolResultPartSchema = z.object({
  type: z.literal('tool-result'),
  callId: z.string().min(1),
  name: z.string().min(1),
  status: ToolResultStatusSchema,
  /** What the model reads: the result (already wrapped as untrusted data) or what went wrong. */
  content: z.string(),
  /** Absent in conversations stored before issue 12, and for tools without an app. */
  app: ToolAppSchema.optional(),
  /** The result's images that passed the image gate (issue 14); `content` names each one. */
  images: ImageListSchema.optional(),
});
export type ToolResultPart = z.infer<typeof ToolResultPartSchema>;

/** A resource the user picked to send with a message (issue 12): which one, as the picker named it. */
export const AttachmentRefSchema = z.object({
  server: z.string().min(1).max(256),
  uri: z.string().min(1).max(8192),
  name: z.string().max(1024),
});
export type AttachmentRef = z.infer<typeof AttachmentRefSchema>;

/** An attached resource as sent: `content` is what the model reads (wrapped as untrusted data). */
export const AttachmentSchema = AttachmentRefSchema.extend({
  mimeType: z.string().optional(),
  kind: z.enum(['text', 'binary']),
  /** Characters of text plus bytes of binary content read. */
  bytes: z.number().int().nonnegative(),
  content: z.string(),
});
export type Attachment = z.infer<typeof AttachmentSchema>;

/** A text file the user attached: `content` is what the model reads (wrapped as untrusted data). */
export const FileAttachmentSchema = z.object({
  name: z.string().max(256),
  /** Characters of text read. */
  chars: z.number().int().nonnegative(),
  content: z.string(),
});
export type FileAttachment = z.infer<typeof FileAttachmentSchema>;

export const UserMessageSchema = z.object({
  role: z.literal('user'),
  content: z.string(),
  /** Resources the user attached (absent in conversations stored before issue 12). */
  attachments: z.array(AttachmentSchema).max(16).optional(),
  /** Images the user attached or pasted (issue 14), checked like a tool's images. */
  images: ImageListSchema.optional(),
  /** Text files the user attached (issue 14). */
  files: z.array(FileAttachmentSchema).max(8).optional(),
});
export const AssistantMessageSchema = z.object({
  role: z.literal('assistant'),
  content: z.array(z.discriminatedUnion('type', [TextPartSchema, ToolCallPartSchema])),
});
export const ToolMessageSchema = z.object({
  role: z.literal('tool'),
  results: z.array(ToolResultPartSchema),
});

export const ChatMessageSchema = z.discriminatedUnion('role', [
  UserMessageSchema,
  AssistantMessageSchema,
  ToolMessageSchema,
]);
export type ChatMessage = z.infer<typeof ChatMessageSchema>;
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;
export type ToolMessage = z.infer<typeof ToolMessageSchema>;

export const ConversationSchema = z.object({
  /** Bumped when the stored shape changes incompatibly. */
  version: z.literal(1),
  id: z.string().min(1),
  createdAt: z.number(),
  updatedAt: z.number(),
  messages: z.array(ChatMessageSchema),
});
export type Conversation = z.infer<typeof ConversationSchema>;
