import { restoreConversation } from '../pairing';
import type { Conversation } from '../../messaging/conversation';
import {
  isQuotaMessage,
  UNDO_GRACE_MS,
  UNDO_WINDOW_MS,
  type HistoryEntry,
  type HistoryPage,
  type HistoryPruned,
  type HistorySaveProblem,
} from '../../messaging/history';
import { messageOf } from '../../../protocol/guards';
import {
  emptyIndex,
  entryOf,
  findSnippet,
  HistoryIndexSchema,
  INDEX_KEY,
  LEGACY_CONVERSATION_KEY,
  normalizeQuery,
  pruneIndex,
  recordKey,
  removeEntry,
  titleMatches,
  upsertEntry,
  type HistoryIndex,
} from './conversation-index';
import type { KeyValueStorage } from './key-value';

/**
 * Every conversation, kept across worker and browser restarts (issue 14): a small index (what the
 * list shows) and one key per transcript, so listing 200 conversations reads one value. The index
 * lives in memory; writes are serialized and coalesced: while one write is in flight only the
 * newest version of each conversation waits, so a burst of transcript changes costs at most two
 * writes of it (and of the index), and the last one always wins.
 */

export interface ListOptions {
  readonly query?: string;
  /** Position in the newest-first list where this page starts (`next` of the previous page). */
  readonly cursor?: number;
  readonly pageSize?: number;
}

export const DEFAULT_PAGE_SIZE = 30;

export interface ConversationStoreOptions {
  readonly now?: () => number;
  /** A save failed, or (null) succeeded again after one had failed. */
  readonly onSaveProblem?: (problem: HistorySaveProblem | null) => void;
}

export class ConversationStore {
  private writing: Promise<void> | undefined;
  /** Transcripts to write (by id) and to delete, in the next write. */
  private readonly toWrite = new Map<string, Conversation>();
  private readonly toRemove = new Set<string>();
  private indexDirty = false;
  /** Deleted this session: a late save of one (its run's last words) must not bring it back. */
  private readonly deleted = new Set<string>();
  /**
   * What a failed write could not store (a full storage.local): kept, readable through `load`,
   * and written again with the next change, so nothing is lost while the worker lives.
   */
  private readonly unsaved = new Map<string, Conversation>();
  private readonly unremoved = new Set<string>();
  private problem: HistorySaveProblem | null = null;
  /** The last deletion, for Undo (issue 14): in memory only, and only for the undo window. */
  private lastRemoved: {
    readonly entry: HistoryEntry;
    readonly conversation: Conversation;
    readonly at: number;
    readonly wasCurrent: boolean;
  } | null = null;
  private readonly now: () => number;

  private constructor(
    private readonly storage: KeyValueStorage,
    private index: HistoryIndex,
    private readonly options: ConversationStoreOptions,
  ) {
    this.now = options.now ?? (() => Date.now());
  }

  /** Reads the index, migrating the single conversation of schema version 1 if there is one. */
  static async open(
    storage: KeyValueStorage,
    options: ConversationStoreOptions | (() => number) = {},
  ): Promise<ConversationStore> {
    const opts = typeof options === 'function' ? { now: options } : options;
    const raw = await storage.get(INDEX_KEY);
    if (raw !== undefined) {
      const parsed = HistoryIndexSchema.safeParse(raw);
      if (parsed.success) return new ConversationStore(storage, parsed.data, opts);
      console.warn('[switchyard] the conversation list was unreadable; starting a new one');
      return new ConversationStore(storage, emptyIndex(), opts);
    }
    const store = new ConversationStore(storage, emptyIndex(), opts);
    await store.migrateLegacy();
    return store;
  }

  /**
   * Schema 1 -> 2: the one stored conversation becomes the first entry (and the current one).
   * Written transcript first, index second, old key removed last, so a worker stopped halfway
   * migrates again on its next start.
   */
  private async migrateLegacy(): Promise<void> {
    const legacy = await this.storage.get(LEGACY_CONVERSATION_KEY);
    if (legacy === undefined) return;
    const conversation = restoreConversation(legacy);
    if (conversation === undefined) {
      console.warn('[switchyard] the stored conversation was unreadable; starting a new one');
      return;
    }
    if (conversation.messages.length > 0) {
      await this.storage.set(recordKey(conversation.id), conversation);
      this.index = upsertEntry(this.index, entryOf(conversation));
    }
    this.index = { ...this.index, currentId: conversation.id };
    await this.storage.set(INDEX_KEY, this.index);
    await this.storage.remove(LEGACY_CONVERSATION_KEY);
  }

  get limit(): number {
    return this.index.limit;
  }

  get pruned(): HistoryPruned | null {
    return this.index.pruned;
  }

  /** Why the last save failed; null when it succeeded. */
  get saveProblem(): HistorySaveProblem | null {
    return this.problem;
  }

  /** The conversation the chat showed last, re-paired; undefined when there is none. */
  async current(): Promise<Conversation | undefined> {
    const id = this.index.currentId;
    return id === null ? undefined : this.load(id);
  }

  /** A stored conversation with its tool calls re-paired; undefined when there is no such one. */
  async load(id: string): Promise<Conversation | undefined> {
    const waiting = this.toWrite.get(id) ?? this.unsaved.get(id);
    if (waiting !== undefined) return waiting;
    if (this.deleted.has(id)) return undefined;
    const stored = await this.storage.get(recordKey(id));
    if (stored === undefined) return undefined;
    const conversation = restoreConversation(stored);
    if (conversation === undefined) {
      console.warn(`[switchyard] the stored conversation ${id} was unreadable`);
    }
    return conversation;
  }

  /**
   * Records the chat's conversation as the current one. An empty one (New Chat) is not listed
   * until its first message. Applies the bound, which may remove the oldest conversations.
   */
  save(conversation: Conversation): Promise<void> {
    if (this.deleted.has(conversation.id)) return this.writing ?? Promise.resolve();
    let index: HistoryIndex = { ...this.index, currentId: conversation.id };
    if (conversation.messages.length > 0) {
      index = upsertEntry(index, entryOf(conversation));
      this.toWrite.set(conversation.id, conversation);
    }
    this.commit(index);
    return this.flush();
  }

  /** Renames a conversation the chat does not show (the session renames its own). */
  async rename(id: string, title: string): Promise<boolean> {
    const conversation = await this.load(id);
    if (conversation === undefined) return false;
    const renamed = { ...conversation, title };
    this.toWrite.set(id, renamed);
    this.index = upsertEntry(this.index, entryOf(renamed));
    this.indexDirty = true;
    await this.flush();
    return true;
  }

  /**
   * Deletes a conversation; false when there was none of that id. It can be restored (`restore`)
   * for the undo window, until the next deletion.
   */
  async remove(id: string, wasCurrent = false): Promise<boolean> {
    const entry = this.index.entries.find((e) => e.id === id);
    if (entry === undefined) return false;
    const conversation = await this.load(id);
    this.lastRemoved =
      conversation === undefined ? null : { entry, conversation, at: this.now(), wasCurrent };
    this.deleted.add(id);
    this.toWrite.delete(id);
    this.unsaved.delete(id);
    this.toRemove.add(id);
    this.index = removeEntry(this.index, id);
    this.indexDirty = true;
    await this.flush();
    return true;
  }

  /**
   * Undo of the last deletion: its entry and transcript back exactly as they were. Undefined when
   * `id` is not the last one deleted, or the undo window has passed.
   */
  async restore(
    id: string,
  ): Promise<{ readonly conversation: Conversation; readonly wasCurrent: boolean } | undefined> {
    const removed = this.lastRemoved;
    if (removed?.entry.id !== id) return undefined;
    this.lastRemoved = null;
    if (this.now() - removed.at > UNDO_WINDOW_MS + UNDO_GRACE_MS) return undefined;
    this.deleted.delete(id);
    this.toRemove.delete(id);
    this.unremoved.delete(id);
    this.toWrite.set(id, removed.conversation);
    const entries = [...this.index.entries.filter((e) => e.id !== id), removed.entry];
    entries.sort((a, b) => b.updatedAt - a.updatedAt);
    this.index = { ...this.index, entries };
    this.indexDirty = true;
    await this.flush();
    return { conversation: removed.conversation, wasCurrent: removed.wasCurrent };
  }

  /** Sets the bound (the caller checked its range) and applies it at once. */
  async setLimit(limit: number): Promise<void> {
    this.commit({ ...this.index, limit });
    await this.flush();
  }

  /** The user read the notice of the last pruning. */
  async dismissPruned(): Promise<void> {
    this.index = { ...this.index, pruned: null };
    this.indexDirty = true;
    await this.flush();
  }

  /**
   * A page of the list, newest first. With a query, the entries whose title or messages contain
   * it (case-insensitive); only entries whose title does not match have their transcript read.
   */
  async list(options: ListOptions = {}): Promise<HistoryPage> {
    const query = normalizeQuery(options.query ?? '');
    const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    const entries = this.index.entries;
    const items: HistoryPage['items'][number][] = [];
    let position = options.cursor ?? 0;
    for (; position < entries.length && items.length < pageSize; position += 1) {
      const entry = entries[position];
      if (entry === undefined) break;
      if (query === '' || titleMatches(entry, query)) {
        items.push({ entry });
        continue;
      }
      const conversation = await this.load(entry.id);
      const snippet = conversation === undefined ? null : findSnippet(conversation.messages, query);
      if (snippet !== null) items.push({ entry, snippet });
    }
    return {
      items,
      next: position < entries.length ? position : null,
      currentId: this.index.currentId ?? '',
      limit: this.index.limit,
      pruned: this.index.pruned,
    };
  }

  /** Takes `index` after applying the bound, queueing the transcripts it removes. */
  private commit(index: HistoryIndex): void {
    const { index: bounded, removed } = pruneIndex(index, this.now());
    for (const id of removed) {
      this.deleted.add(id);
      this.toWrite.delete(id);
      this.unsaved.delete(id);
      this.toRemove.add(id);
    }
    this.index = bounded;
    this.indexDirty = true;
  }

  private flush(): Promise<void> {
    // What failed last time goes again (unless a newer version of it is waiting): a deletion may
    // have made room.
    for (const [id, conversation] of this.unsaved) {
      if (!this.toWrite.has(id)) this.toWrite.set(id, conversation);
    }
    for (const id of this.unremoved) this.toRemove.add(id);
    if (this.unsaved.size > 0 || this.unremoved.size > 0) this.indexDirty = true;
    this.unsaved.clear();
    this.unremoved.clear();
    this.writing ??= this.drain();
    return this.writing;
  }

  private report(problem: HistorySaveProblem | null): void {
    if (problem === null && this.problem === null) return;
    this.problem = problem;
    this.options.onSaveProblem?.(problem);
  }

  private failed(error: unknown, writes: readonly Conversation[], removals: readonly string[]) {
    for (const conversation of writes) {
      // A newer version waiting supersedes the one that failed.
      if (!this.toWrite.has(conversation.id) && !this.deleted.has(conversation.id)) {
        this.unsaved.set(conversation.id, conversation);
      }
    }
    for (const id of removals) this.unremoved.add(id);
    const detail = messageOf(error);
    const currentId = this.index.currentId;
    this.report({
      kind: isQuotaMessage(detail) ? 'quota' : 'other',
      detail,
      currentUnsaved: currentId !== null && this.unsaved.has(currentId),
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.toWrite.size > 0 || this.toRemove.size > 0 || this.indexDirty) {
        const writes = [...this.toWrite.values()];
        const removals = [...this.toRemove];
        this.toWrite.clear();
        this.toRemove.clear();
        this.indexDirty = false;
        const index = this.index;
        try {
          for (const conversation of writes) {
            await this.storage.set(recordKey(conversation.id), conversation);
          }
          // The index after the transcripts: an entry never points at a transcript not written.
          await this.storage.set(INDEX_KEY, index);
          for (const id of removals) await this.storage.remove(recordKey(id));
          this.report(null);
        } catch (error) {
          console.error('[switchyard] could not save the conversations', error);
          this.failed(error, writes, removals);
        }
      }
    } finally {
      this.writing = undefined;
    }
  }
}
