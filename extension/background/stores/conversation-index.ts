import { z } from 'zod';
import type { ChatMessage, Conversation, ConversationModel } from '../../messaging/conversation';
import {
  DEFAULT_HISTORY_LIMIT,
  HistoryEntrySchema,
  MAX_HISTORY_LIMIT,
  MIN_HISTORY_LIMIT,
  type HistoryEntry,
} from '../../messaging/history';

/**
 * The history's index, kept pure: what an entry says about a conversation, the order of the list,
 * which conversations the bound removes, and how a search matches. The store
 * (conversation-store.ts) does the reading and writing.
 *
 * Storage layout, schema version 2: `conversations.v2` holds this index; each transcript is under
 * `conversation.v2.<id>`. Version 1 was one key, `conversation.v1`, holding the only conversation;
 * the store migrates it on first open.
 */

export const HISTORY_SCHEMA_VERSION = 2;
export const INDEX_KEY = 'conversations.v2';
export const LEGACY_CONVERSATION_KEY = 'conversation.v1';

export function recordKey(id: string): string {
  return `conversation.v2.${id}`;
}

export const HistoryLimitSchema = z.number().int().min(MIN_HISTORY_LIMIT).max(MAX_HISTORY_LIMIT);

export const HistoryIndexSchema = z.object({
  version: z.literal(HISTORY_SCHEMA_VERSION),
  /** The conversation the chat shows; null before the first one. */
  currentId: z.string().min(1).nullable(),
  limit: HistoryLimitSchema.catch(DEFAULT_HISTORY_LIMIT),
  /** Newest first (by updatedAt). */
  entries: z.array(HistoryEntrySchema),
  pruned: z.object({ count: z.number().int().positive(), at: z.number() }).nullable().catch(null),
});
export type HistoryIndex = z.infer<typeof HistoryIndexSchema>;

export function emptyIndex(): HistoryIndex {
  return {
    version: HISTORY_SCHEMA_VERSION,
    currentId: null,
    limit: DEFAULT_HISTORY_LIMIT,
    entries: [],
    pruned: null,
  };
}

/** Longest title taken from a first message. */
export const DERIVED_TITLE_CHARS = 80;
export const UNTITLED = 'New chat';

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** The user's title, or the first words of the first user message, or UNTITLED. */
export function titleOf(conversation: Conversation): string {
  const named = oneLine(conversation.title ?? '');
  if (named !== '') return named;
  const first = conversation.messages.find((m) => m.role === 'user');
  const words = first?.role === 'user' ? oneLine(first.content) : '';
  return words === '' ? UNTITLED : shorten(words, DERIVED_TITLE_CHARS);
}

/** The provider it began with, with the model it uses now (the panel's picker may have changed it). */
export function providerOf(conversation: Conversation): ConversationModel | undefined {
  const { provider, model } = conversation;
  if (provider === undefined || model === undefined) return provider;
  return { ...provider, model };
}

export function entryOf(conversation: Conversation): HistoryEntry {
  const { id, profile, createdAt, updatedAt, messages } = conversation;
  const provider = providerOf(conversation);
  return {
    id,
    title: titleOf(conversation),
    renamed: oneLine(conversation.title ?? '') !== '',
    ...(profile === undefined ? {} : { profile }),
    ...(provider === undefined ? {} : { provider }),
    createdAt,
    updatedAt,
    messageCount: messages.length,
  };
}

/** The index with `entry` added or replacing the one of its id, newest first. */
export function upsertEntry(index: HistoryIndex, entry: HistoryEntry): HistoryIndex {
  const entries = [entry, ...index.entries.filter((e) => e.id !== entry.id)];
  // Stable: among equal times the one just written comes first.
  entries.sort((a, b) => b.updatedAt - a.updatedAt);
  return { ...index, entries };
}

export function removeEntry(index: HistoryIndex, id: string): HistoryIndex {
  return { ...index, entries: index.entries.filter((e) => e.id !== id) };
}

/**
 * Applies the bound: the oldest entries beyond `limit` go, never the current conversation (the
 * one the user is looking at). Returns the ids removed, for the store to delete their transcripts.
 */
export function pruneIndex(
  index: HistoryIndex,
  now: number,
): { readonly index: HistoryIndex; readonly removed: readonly string[] } {
  const kept: HistoryEntry[] = [];
  const removed: string[] = [];
  for (const entry of index.entries) {
    const room = kept.length < index.limit;
    if (room || entry.id === index.currentId) kept.push(entry);
    else removed.push(entry.id);
  }
  // The current one may have been kept beyond the limit: drop the oldest other one instead.
  while (kept.length > index.limit) {
    const at = lastIndexWhere(kept, (e) => e.id !== index.currentId);
    if (at === -1) break;
    removed.push(...kept.splice(at, 1).map((e) => e.id));
  }
  if (removed.length === 0) return { index, removed };
  return {
    index: { ...index, entries: kept, pruned: { count: removed.length, at: now } },
    removed,
  };
}

function lastIndexWhere<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i -= 1) {
    const item = items[i];
    if (item !== undefined && test(item)) return i;
  }
  return -1;
}

/** The searchable words of a message: what the user and the model wrote (not tool output). */
function textOf(message: ChatMessage): string {
  switch (message.role) {
    case 'user':
      return message.content;
    case 'assistant':
      return message.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ');
    case 'tool':
      return '';
  }
}

/** Characters of context on each side of a search hit. */
export const SNIPPET_CONTEXT_CHARS = 40;

/** The query as matched: whitespace collapsed, case folded; empty means "no search". */
export function normalizeQuery(query: string): string {
  return oneLine(query).toLowerCase();
}

export function titleMatches(entry: HistoryEntry, query: string): boolean {
  return oneLine(entry.title).toLowerCase().includes(query);
}

/** The words around the first hit of `query` (normalized) in the messages; null when none. */
export function findSnippet(messages: readonly ChatMessage[], query: string): string | null {
  for (const message of messages) {
    const text = oneLine(textOf(message));
    const at = text.toLowerCase().indexOf(query);
    if (at === -1) continue;
    const start = Math.max(0, at - SNIPPET_CONTEXT_CHARS);
    const end = Math.min(text.length, at + query.length + SNIPPET_CONTEXT_CHARS);
    return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
  }
  return null;
}
