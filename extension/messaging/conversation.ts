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
/** Tokens one model step used, as the provider reported them (issue 14). */
export const UsageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
});

export const AssistantMessageSchema = z.object({
  role: z.literal('assistant'),
  content: z.array(z.discriminatedUnion('type', [TextPartSchema, ToolCallPartSchema])),
  /** What the provider reported for the step that wrote this message (absent: none reported). */
  usage: UsageSchema.optional(),
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

/** The model a conversation talks to: the settings' when it began, or the one picked for it. */
export const ConversationModelSchema = z.object({
  kind: z.enum(['openai', 'anthropic', 'openai-compatible']),
  model: z.string().min(1).max(256),
  /** An OpenAI-compatible provider's name. */
  name: z.string().max(256).optional(),
});
export type ConversationModel = z.infer<typeof ConversationModelSchema>;

/** The profile (design D10) that was active when the conversation began. */
export const ConversationProfileSchema = z.object({
  id: z.string().min(1).max(256),
  name: z.string().max(256),
});
export type ConversationProfile = z.infer<typeof ConversationProfileSchema>;

/** Longest title a conversation may be given. */
export const MAX_TITLE_CHARS = 200;

export const ConversationSchema = z.object({
  /** Bumped when the stored shape changes incompatibly (the fields below are optional: v1 still). */
  version: z.literal(1),
  id: z.string().min(1).max(128),
  createdAt: z.number(),
  updatedAt: z.number(),
  messages: z.array(ChatMessageSchema),
  /**
   * The model this conversation uses, chosen in the side panel (issue 14); absent: the default
   * model of the provider set up in options.
   */
  model: z.string().trim().min(1).max(256).optional(),
  /**
   * How many of the first messages the latest request left out to fit the model's context window
   * (oldest whole turns; background/context-trim.ts). The panel marks where they end.
   */
  notSent: z.number().int().nonnegative().optional(),
  /** The user's name for it (Rename); absent, the list shows its first message. */
  title: z.string().max(MAX_TITLE_CHARS).optional(),
  /** Recorded at the first message (conversations from before issue 14 have none). */
  profile: ConversationProfileSchema.optional(),
  /** The provider and model it began with, as the history list and export show it. */
  provider: ConversationModelSchema.optional(),
});
export type Conversation = z.infer<typeof ConversationSchema>;

/**
 * Whether `next` holds the same transcript as `previous`: the same conversation, and no message
 * written since (a rename, the model picker or the count left out changed only its details). Text
 * streamed meanwhile is then not in the transcript yet, and stays on screen.
 */
export function sameTranscript(previous: Conversation, next: Conversation): boolean {
  return (
    previous.id === next.id &&
    previous.updatedAt === next.updatedAt &&
    previous.messages.length === next.messages.length
  );
}
