import { z } from 'zod';
import { ProfileIdSchema } from './profiles';
import { ContentBlockSchema } from './tools';

/**
 * A server's resources, resource templates and prompts, and the completions it offers for their
 * arguments (issue 12), as the host relays them to the extension. MCP-shaped, each item naming
 * the configured `server` it came from. Every string that came from a server has been through the
 * host's untrusted-text gate; resource text and prompt messages are capped to fit one frame, and
 * the extension wraps them as untrusted data before a model reads them (design D9).
 *
 * Reading a resource or fetching a prompt is the user's own act (they picked it), so it needs no
 * approval. A server the active profile hides has no resources or prompts on that site: asking
 * for one by name is `unknown-server`, the answer for a name that is not configured.
 */

const ServerName = z.string().min(1).max(256);
/** Longest URI a request carries: they are opaque server strings, bounded so a request stays small. */
export const MAX_URI_CHARS = 8192;
const Uri = z.string().min(1).max(MAX_URI_CHARS);

/** Most items one listing returns per server; the rest are dropped with `truncated` set. */
export const MAX_LISTED_PER_SERVER = 2_000;

export const ResourceSchema = z.object({
  server: z.string(),
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  /** Size in bytes, as the server declared it (unchecked). */
  size: z.number().nonnegative().optional(),
});
export type Resource = z.infer<typeof ResourceSchema>;

export const ResourceTemplateSchema = z.object({
  server: z.string(),
  /** An RFC 6570 URI template (`file:///{path}`). */
  uriTemplate: z.string(),
  /** Its variables in order, each once: the fields of the form that fills it in. */
  variables: z.array(z.string()),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
});
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;

export const ResourceContentsSchema = z.union([
  z.object({ uri: z.string(), mimeType: z.string().optional(), text: z.string() }),
  /** Base64; a blob too large for one frame is replaced by a text note saying so. */
  z.object({ uri: z.string(), mimeType: z.string().optional(), blob: z.string() }),
]);
export type ResourceContents = z.infer<typeof ResourceContentsSchema>;

export const PromptArgumentSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean().optional(),
});
export type PromptArgument = z.infer<typeof PromptArgumentSchema>;

export const PromptSchema = z.object({
  server: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(PromptArgumentSchema),
});
export type Prompt = z.infer<typeof PromptSchema>;

export const PromptMessageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: ContentBlockSchema,
});
export type PromptMessage = z.infer<typeof PromptMessageSchema>;

/** A server whose listing failed or was cut short; the others are still listed. */
export const ListingProblemSchema = z.object({
  server: z.string(),
  message: z.string(),
});
export type ListingProblem = z.infer<typeof ListingProblemSchema>;

/** What a completion completes: a prompt's argument, or a resource template's variable. */
export const CompletionRefSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ref/prompt'), name: z.string().min(1).max(1024) }),
  z.strictObject({ type: z.literal('ref/resource'), uri: Uri }),
]);
export type CompletionRef = z.infer<typeof CompletionRefSchema>;

/** Most completion values relayed (MCP caps a server's answer at 100). */
export const MAX_COMPLETION_VALUES = 100;

const ListParams = z
  .object({
    /** One server's; omitted: every running server the profile shows. */
    server: ServerName.optional(),
    /** The active profile (design D10); omitted: the default. */
    profile: ProfileIdSchema.optional(),
  })
  .optional();

const Listing = {
  /** Servers whose listing failed or was cut short (`MAX_LISTED_PER_SERVER`). */
  problems: z.array(ListingProblemSchema),
};

const PromptArguments = z.record(z.string().min(1).max(256), z.string().max(65_536));

export const resourceMethods = {
  'resources/list': {
    params: ListParams,
    result: z.object({ resources: z.array(ResourceSchema), ...Listing }),
  },
  'resources/templates/list': {
    params: ListParams,
    result: z.object({ resourceTemplates: z.array(ResourceTemplateSchema), ...Listing }),
  },
  'resources/templates/expand': {
    params: z.object({
      uriTemplate: Uri,
      /** A value for every variable of the template, none blank. */
      arguments: PromptArguments,
    }),
    result: z.object({ uri: z.string() }),
  },
  'resources/read': {
    params: z.object({ server: ServerName, uri: Uri, profile: ProfileIdSchema.optional() }),
    result: z.object({ server: z.string(), contents: z.array(ResourceContentsSchema) }),
  },
  'resources/subscribe': {
    params: z.object({ server: ServerName, uri: Uri, profile: ProfileIdSchema.optional() }),
    /** False when the server does not offer subscriptions (nothing was sent). */
    result: z.object({ subscribed: z.boolean() }),
  },
  'resources/unsubscribe': {
    params: z.object({ server: ServerName, uri: Uri }),
    result: z.object({ unsubscribed: z.boolean() }),
  },
  'prompts/list': {
    params: ListParams,
    result: z.object({ prompts: z.array(PromptSchema), ...Listing }),
  },
  'prompts/get': {
    params: z.object({
      server: ServerName,
      name: z.string().min(1).max(1024),
      arguments: PromptArguments.optional(),
      profile: ProfileIdSchema.optional(),
    }),
    result: z.object({
      server: z.string(),
      description: z.string().optional(),
      messages: z.array(PromptMessageSchema),
    }),
  },
  'completion/complete': {
    params: z.object({
      server: ServerName,
      ref: CompletionRefSchema,
      argument: z.object({ name: z.string().min(1).max(256), value: z.string().max(4096) }),
      /** The arguments already filled in, for completions that depend on them. */
      context: z.object({ arguments: PromptArguments }).optional(),
      profile: ProfileIdSchema.optional(),
    }),
    result: z.object({
      values: z.array(z.string()).max(MAX_COMPLETION_VALUES),
      total: z.number().int().nonnegative().optional(),
      hasMore: z.boolean().optional(),
    }),
  },
} as const satisfies Record<string, { params: z.ZodType; result: z.ZodType }>;

/** Notifications relaying a server's own (`list_changed`, `resources/updated`). */
export const resourceNotifications = {
  'notifications/resources/changed': z.object({ server: z.string() }),
  'notifications/resources/updated': z.object({ server: z.string(), uri: z.string() }),
  'notifications/prompts/changed': z.object({ server: z.string() }),
} as const satisfies Record<string, z.ZodType>;
