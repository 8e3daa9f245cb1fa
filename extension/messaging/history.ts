import { z } from 'zod';
import { ConversationModelSchema, ConversationProfileSchema } from './conversation';

/**
 * The conversation history (issue 14) as pages see it: one entry per stored conversation, enough
 * to list it without reading its transcript. The worker keeps the entries in one small index and
 * each transcript under its own key (background/stores/conversation-store.ts).
 */

export const HistoryEntrySchema = z.object({
  id: z.string().min(1).max(128),
  /** The user's name for it, or its first message (shortened). */
  title: z.string(),
  /** The user named it (Rename): the title no longer follows the first message. */
  renamed: z.boolean(),
  profile: ConversationProfileSchema.optional(),
  provider: ConversationModelSchema.optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
  messageCount: z.number().int().nonnegative(),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

/** Fewest and most conversations the store may be bounded to, and the default bound. */
export const MIN_HISTORY_LIMIT = 5;
export const MAX_HISTORY_LIMIT = 1_000;
export const DEFAULT_HISTORY_LIMIT = 100;

/**
 * How long the panel offers Undo after a deletion (issue 14), unless the user does something
 * else first. The worker keeps the deleted conversation in memory a little longer
 * (UNDO_GRACE_MS, for the message on its way), then it is gone for good.
 */
export const UNDO_WINDOW_MS = 8_000;
export const UNDO_GRACE_MS = 4_000;

/** The last time the bound removed conversations: how many, and when. */
export interface HistoryPruned {
  readonly count: number;
  readonly at: number;
}

/** One page of the list (newest first), or of a search. */
export interface HistoryPage {
  readonly items: readonly {
    readonly entry: HistoryEntry;
    /** Searching: the words around the first match in its messages (absent: the title matched). */
    readonly snippet?: string;
  }[];
  /** Where the next page starts; null when this was the last. */
  readonly next: number | null;
  /** The conversation the chat shows now. */
  readonly currentId: string;
  readonly limit: number;
  readonly pruned: HistoryPruned | null;
}

/** An exported conversation, ready to be saved by the page. */
export interface HistoryExport {
  readonly filename: string;
  readonly mimeType: 'text/markdown' | 'application/json';
  readonly text: string;
}

/**
 * The last save of the conversations failed (issue 14): `quota` when the browser's storage for
 * the extension is full (Chrome: "QUOTA_BYTES quota exceeded"), `other` for anything else. The
 * worker keeps what it could not write and tries again with the next change; null once a save
 * succeeds.
 */
export interface HistorySaveProblem {
  readonly kind: 'quota' | 'other';
  /** The browser's own words, for the curious; the panel says what it means. */
  readonly detail: string;
  /** The conversation on screen is among those not saved. */
  readonly currentUnsaved: boolean;
}

/** Chrome: "QUOTA_BYTES quota exceeded"; Firefox: "QuotaExceededError: …". */
export function isQuotaMessage(message: string): boolean {
  return /QUOTA_BYTES|QuotaExceeded|quota exceeded/i.test(message);
}
