import { restoreConversation } from '../pairing';
import type { Conversation } from '../../messaging/conversation';
import type { KeyValueStorage } from './key-value';

/**
 * The current conversation, kept across worker and browser restarts. Writes are serialized and
 * coalesced: while one write is in flight only the newest conversation waits, so a burst of
 * transcript changes costs at most two writes and the last one always wins.
 */

const CONVERSATION_KEY = 'conversation.v1';

export class ConversationStore {
  private writing: Promise<void> | undefined;
  private next: Conversation | undefined;

  constructor(private readonly storage: KeyValueStorage) {}

  /** The stored conversation with its tool calls re-paired, or undefined when there is none. */
  async load(): Promise<Conversation | undefined> {
    const stored = await this.storage.get(CONVERSATION_KEY);
    if (stored === undefined) return undefined;
    const conversation = restoreConversation(stored);
    if (conversation === undefined) {
      console.warn('[switchyard] the stored conversation was unreadable; starting a new one');
    }
    return conversation;
  }

  save(conversation: Conversation): Promise<void> {
    this.next = conversation;
    this.writing ??= this.drain();
    return this.writing;
  }

  private async drain(): Promise<void> {
    try {
      while (this.next !== undefined) {
        const conversation = this.next;
        this.next = undefined;
        try {
          await this.storage.set(CONVERSATION_KEY, conversation);
        } catch (error) {
          console.error('[switchyard] could not save the conversation', error);
        }
      }
    } finally {
      this.writing = undefined;
    }
  }
}
