import { z } from 'zod';
import {
  MAX_COMPLETION_VALUES,
  MAX_LISTED_PER_SERVER,
  type PromptArgument,
} from '../../protocol/resources';
import { ContentBlockSchema, type ContentBlock } from '../../protocol/tools';
import { MAX_LIST_PAGES, followCursor } from '../shared/tool-definition';
import { isVerbatim, safeText } from '../../protocol/untrusted/gate';
import { templateVariables } from './uri-template';

/**
 * A server's resources, resource templates and prompts as its answers carry them, validated item
 * by item (issue 12): one malformed entry is skipped and counted, its siblings kept, the way a
 * malformed tool is (tool-list.ts). Every string is put through the untrusted-text gate here, so
 * nothing above this file sees a server's raw text. Pure functions over parsed pages; the
 * requests themselves are the runtime's (server-runtime.ts).
 */

/** Lenient page shapes: the host validates each item itself. */
export const RawResourcesPageSchema = z.looseObject({
  resources: z.array(z.unknown()).optional(),
  nextCursor: z.string().optional(),
});
export const RawTemplatesPageSchema = z.looseObject({
  resourceTemplates: z.array(z.unknown()).optional(),
  nextCursor: z.string().optional(),
});
export const RawPromptsPageSchema = z.looseObject({
  prompts: z.array(z.unknown()).optional(),
  nextCursor: z.string().optional(),
});
/** Answers with nothing to read (`resources/subscribe`). */
export const EmptyResultSchema = z.looseObject({});
export const RawReadResultSchema = z.looseObject({ contents: z.array(z.unknown()).optional() });
export const RawPromptResultSchema = z.looseObject({
  description: z.unknown().optional(),
  messages: z.array(z.unknown()).optional(),
});
export const RawCompleteResultSchema = z.looseObject({
  completion: z
    .looseObject({
      values: z.array(z.unknown()).optional(),
      total: z.unknown().optional(),
      hasMore: z.unknown().optional(),
    })
    .optional(),
});

/** Bounds on one item's strings: a listing a person browses, not a document. */
const NAME_CHARS = 256;
const DESCRIPTION_CHARS = 2_000;

const RawResourceSchema = z.looseObject({
  uri: z.string().min(1).max(8192),
  name: z.string().max(4096).optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().nonnegative().optional(),
});
const RawTemplateSchema = z.looseObject({
  uriTemplate: z.string().min(1).max(8192),
  name: z.string().max(4096).optional(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
});
const RawPromptArgumentSchema = z.looseObject({
  name: z.string().min(1).max(NAME_CHARS),
  title: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean().optional(),
});
const RawPromptSchema = z.looseObject({
  name: z.string().min(1).max(1024),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(z.unknown()).max(64).optional(),
});

/** The optional display fields of an item, gated. */
function labels(item: {
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly mimeType?: string | undefined;
}): { title?: string; description?: string; mimeType?: string } {
  return {
    ...(item.title === undefined ? {} : { title: safeText(item.title, { maxChars: NAME_CHARS }) }),
    ...(item.description === undefined
      ? {}
      : { description: safeText(item.description, { maxChars: DESCRIPTION_CHARS }) }),
    ...(item.mimeType === undefined
      ? {}
      : { mimeType: safeText(item.mimeType, { maxChars: 128 }) }),
  };
}

export interface FeatureResource {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
}

export interface FeatureTemplate {
  readonly uriTemplate: string;
  readonly variables: string[];
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

export interface FeaturePrompt {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments: PromptArgument[];
}

/*
 * A URI, a template, a prompt's or an argument's name goes back to the server in requests: a
 * gated copy names nothing the server has, and the raw one cannot be shown. An item with an
 * identifier the gate would change is skipped and counted (isVerbatim).
 */

export function parseResource(value: unknown): FeatureResource | undefined {
  const parsed = RawResourceSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const item = parsed.data;
  if (!isVerbatim(item.uri)) return undefined;
  return {
    uri: item.uri,
    name: safeText(item.name ?? item.uri, { maxChars: NAME_CHARS }),
    ...labels(item),
    ...(item.size === undefined ? {} : { size: item.size }),
  };
}

export function parseTemplate(value: unknown): FeatureTemplate | undefined {
  const parsed = RawTemplateSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const item = parsed.data;
  if (!isVerbatim(item.uriTemplate)) return undefined;
  const uriTemplate = item.uriTemplate;
  // A template nobody can fill in is skipped and counted, like any malformed item.
  const variables = templateVariables(uriTemplate);
  if (variables === undefined) return undefined;
  return {
    uriTemplate,
    variables,
    name: safeText(item.name ?? item.uriTemplate, { maxChars: NAME_CHARS }),
    ...labels(item),
  };
}

export function parsePrompt(value: unknown): FeaturePrompt | undefined {
  const parsed = RawPromptSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const item = parsed.data;
  const args: PromptArgument[] = [];
  for (const raw of item.arguments ?? []) {
    const arg = RawPromptArgumentSchema.safeParse(raw);
    // A prompt whose arguments cannot be read cannot be filled in: skip it whole.
    if (!arg.success || !isVerbatim(arg.data.name) || arg.data.name.length > NAME_CHARS) {
      return undefined;
    }
    args.push({
      name: arg.data.name,
      ...labels(arg.data),
      ...(arg.data.required === undefined ? {} : { required: arg.data.required }),
    });
  }
  if (!isVerbatim(item.name)) return undefined;
  return { name: item.name, ...labels(item), arguments: args };
}

/** What following one listing's pages gave. */
export interface Paged<T> {
  readonly items: T[];
  /** Entries that failed validation and were skipped. */
  readonly skipped: number;
  /**
   * More were listed than `MAX_LISTED_PER_SERVER` (or pages than MAX_LIST_PAGES, or the next
   * page's cursor was longer than MAX_CURSOR_CHARS).
   */
  readonly truncated: boolean;
}

/**
 * Follows `nextCursor` through at most MAX_LIST_PAGES pages, keeping at most
 * MAX_LISTED_PER_SERVER valid items. `page` fetches one page; its errors propagate.
 */
export async function collectPages<T>(
  page: (cursor: string | undefined) => Promise<{ items: unknown[]; nextCursor?: string }>,
  parse: (value: unknown) => T | undefined,
): Promise<Paged<T>> {
  const items: T[] = [];
  let skipped = 0;
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (let n = 0; n < MAX_LIST_PAGES; n += 1) {
    const result = await page(cursor);
    for (const raw of result.items) {
      if (items.length >= MAX_LISTED_PER_SERVER) {
        return { items, skipped, truncated: true };
      }
      const item = parse(raw);
      if (item === undefined) skipped += 1;
      else items.push(item);
    }
    cursor = result.nextCursor;
    const next = followCursor(cursor, seen);
    if (next !== 'follow') return { items, skipped, truncated: next === 'too-long' };
  }
  return { items, skipped, truncated: true };
}

/** A read's contents, each validated; a malformed one becomes a visible note. */
export function readContents(
  raw: z.infer<typeof RawReadResultSchema>,
  uri: string,
): ContentBlock[] {
  return (raw.contents ?? []).map((entry) => {
    const block = ContentBlockSchema.safeParse({ type: 'resource', resource: entry });
    if (block.success) return block.data;
    return {
      type: 'resource',
      resource: { uri, text: '[Switchyard: omitted a malformed resource entry the server sent]' },
    };
  });
}

/** A prompt's messages, each validated; one the host cannot relay becomes a visible note. */
export function promptMessages(raw: z.infer<typeof RawPromptResultSchema>): {
  role: 'user' | 'assistant';
  content: ContentBlock;
}[] {
  return (raw.messages ?? []).slice(0, 256).map((message) => {
    const parsed = z
      .object({ role: z.enum(['user', 'assistant']), content: ContentBlockSchema })
      .safeParse(message);
    if (parsed.success) return parsed.data;
    return {
      role: 'user',
      content: {
        type: 'text',
        text: '[Switchyard: omitted a prompt message the host cannot relay]',
      },
    };
  });
}

/** A completion's values, gated and capped at MCP's 100. */
export function completionValues(raw: z.infer<typeof RawCompleteResultSchema>): {
  values: string[];
  total?: number;
  hasMore?: boolean;
} {
  const completion = raw.completion;
  const values = (completion?.values ?? [])
    .filter((value): value is string => typeof value === 'string')
    .slice(0, MAX_COMPLETION_VALUES)
    .map((value) => safeText(value, { maxChars: 4_096 }));
  const total = completion?.total;
  return {
    values,
    ...(typeof total === 'number' && Number.isInteger(total) && total >= 0 ? { total } : {}),
    ...(typeof completion?.hasMore === 'boolean' ? { hasMore: completion.hasMore } : {}),
  };
}
