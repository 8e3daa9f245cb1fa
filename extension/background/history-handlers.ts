import type { Conversation } from '../messaging/conversation';
import type { HistoryMethod, PageEvent } from '../messaging/ui-protocol';
import type { AgentSession } from './agent-session';
import { exportConversation } from './conversation-export';
import { PageRequestRefused } from './page-handlers';
import type { ConversationStore } from './stores/conversation-store';
import type { PageHandlers } from './ui-server';

/**
 * The history's page requests (issue 14): the list and search come from the store; what concerns
 * the conversation on screen (open, rename it, delete it) goes through the session, whose
 * `conversation-changed` the worker saves, so the store and the chat never disagree.
 */

export interface HistoryHandlerDeps {
  readonly session: Pick<AgentSession, 'conversation' | 'open' | 'annotate' | 'newChat'>;
  readonly store: ConversationStore;
  readonly broadcast: (event: PageEvent) => void;
  readonly now?: () => number;
  /**
   * A conversation was opened from the list: its recorded profile becomes the active one (or,
   * deleted since, the panel is told and the tab's stays). Resolves once the profile is settled.
   */
  readonly openedProfile?: (conversation: Conversation) => Promise<void>;
  /** The conversation whose recorded profile is pinned now, if one is (ProfileTracker). */
  readonly pinnedConversation?: () => string | undefined;
}

const GONE = 'That conversation is no longer stored (it was deleted, or removed by the bound).';

export function createHistoryHandlers(deps: HistoryHandlerDeps): Pick<PageHandlers, HistoryMethod> {
  const { session, store } = deps;
  const now = deps.now ?? (() => Date.now());
  const changed = (): void => {
    deps.broadcast({ type: 'history' });
  };
  // The last conversation deleted while on screen with its profile pinned: its Undo pins it again.
  let deletedWhilePinned: string | undefined;
  const find = async (id: string) => {
    const conversation =
      id === session.conversation.id ? session.conversation : await store.load(id);
    if (conversation === undefined) throw new PageRequestRefused(GONE, 'not-found');
    return conversation;
  };
  return {
    'history/list': ({ query, cursor, pageSize }) =>
      store.list({
        ...(query === undefined ? {} : { query }),
        ...(cursor === undefined ? {} : { cursor }),
        ...(pageSize === undefined ? {} : { pageSize }),
      }),
    'history/open': async ({ id }) => {
      if (id === session.conversation.id) return { conversation: session.conversation };
      const opened = session.open(await find(id));
      await deps.openedProfile?.(opened);
      return { conversation: opened };
    },
    'history/rename': async ({ id, title }) => {
      if (id === session.conversation.id) {
        session.annotate({ title });
        await store.save(session.conversation);
        changed();
        return { renamed: true };
      }
      const renamed = await store.rename(id, title);
      if (renamed) changed();
      return { renamed };
    },
    'history/delete': async ({ id }) => {
      const wasCurrent = id === session.conversation.id;
      // Read before New Chat, which hands the profile back to the tab.
      deletedWhilePinned = wasCurrent && deps.pinnedConversation?.() === id ? id : undefined;
      if (wasCurrent) session.newChat();
      const deleted = await store.remove(id, wasCurrent);
      changed();
      return { deleted };
    },
    'history/restore': async ({ id }) => {
      const restored = await store.restore(id);
      if (restored === undefined) return { restored: false };
      // It was on screen when deleted, and the chat that replaced it is still empty: back to it.
      if (restored.wasCurrent && session.conversation.messages.length === 0) {
        const reopened = session.open(restored.conversation);
        // ...with the profile it had on screen: pinned if it was (issue 14).
        if (deletedWhilePinned === id) await deps.openedProfile?.(reopened);
      }
      deletedWhilePinned = undefined;
      changed();
      return { restored: true };
    },
    'history/export': async ({ id, format }) => exportConversation(await find(id), format, now()),
    'history/bound': async ({ limit }) => {
      if (limit !== undefined) {
        await store.setLimit(limit);
        changed();
      }
      return { limit: store.limit, pruned: store.pruned };
    },
    'history/dismissPruned': async () => {
      await store.dismissPruned();
      changed();
      return {};
    },
  };
}
