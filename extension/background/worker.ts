import { browserWebAuthFlow } from './web-auth';
import type { ActiveProfileView, ContextMeter, PageEvent } from '../messaging/ui-protocol';
import { AgentSession, DEFAULT_SYSTEM_PROMPT } from './agent-session';
import type { BuiltinTools } from './builtin-tools';
import { contextMeter } from './context-meter';
import type { HostClient } from './host-client';
import { createHistoryHandlers } from './history-handlers';
import { imageTokenRule } from './image-tokens';
import { createPageHandlers, settingsEvent } from './page-handlers';
import type { ModelProvider } from './providers/provider';
import {
  sameTranscript,
  type Conversation,
  type ConversationModel,
} from '../messaging/conversation';
import type { ProviderSettings } from '../messaging/provider';
import { testProviderConnection } from './providers/connection-test';
import type { ReachDeps } from './providers/provider-reach';
import { createModelLister } from './providers/model-list';
import { settingsProvider, withConversationModel } from './providers/settings-provider';
import { contextWindowFor, type ContextWindow } from '../messaging/context-window';
import { ConversationStore } from './stores/conversation-store';
import type { KeyValueStorage } from './stores/key-value';
import { SettingsStore } from './stores/settings-store';
import type { ToolRouter, ToolSpec } from './tool-outcome';
import { createToolRouter } from './tool-router';
import { decodeWithImageBitmap } from './image-decode';
import type { TabAddress } from './active-tab';
import { ProfileTracker } from './profile-tracker';
import { waitForStartingServers } from './server-readiness';
import { UiServer, type WorkerPort } from './ui-server';

/**
 * The service worker's parts wired together, with every browser API injected so the whole can
 * run in a unit test: host client, settings and conversation stores, the tool router, the agent
 * session, and the page server that relays it all to the side panel, popup and options page.
 */

/** The side panel's page (Chromium's side panel, Firefox's sidebar). */
const SIDE_PANEL_PATH = '/sidepanel.html';

export interface WorkerDeps {
  readonly host: HostClient;
  readonly storage: KeyValueStorage;
  readonly builtins: BuiltinTools;
  readonly createProvider: (settings: ProviderSettings) => ModelProvider;
  readonly extensionId: string;
  readonly extensionOrigin: string;
  /** Calls back with the active tab's URL now and whenever it changes (see active-tab.ts). */
  readonly watchActiveTab?: (listener: (address: TabAddress) => void) => void;
  /** How long a run waits for servers still starting (default SERVER_READY_WAIT_MS). */
  readonly serverReadyWaitMs?: number;
  /**
   * The network and the browser's site access, for Test connection (issue 14). Default: the
   * global fetch, with every origin counted as granted (there is no site access outside a browser).
   */
  readonly reach?: ReachDeps;
}

const UNRESTRICTED_REACH: ReachDeps = {
  fetch: (input, init) => globalThis.fetch(input, init),
  hasAccess: () => Promise.resolve(true),
};

/** The settings' model, as a conversation records it. */
function modelOf(provider: ProviderSettings | null): ConversationModel | undefined {
  if (provider === null) return undefined;
  return provider.kind === 'openai-compatible'
    ? { kind: provider.kind, model: provider.model, name: provider.name }
    : { kind: provider.kind, model: provider.model };
}

export interface Worker {
  readonly session: AgentSession;
  readonly settings: SettingsStore;
  /** Hands a newly connected page port to the page server (it checks the sender). */
  acceptPort(port: WorkerPort): boolean;
}

export async function startWorker(deps: WorkerDeps): Promise<Worker> {
  const { host } = deps;
  const settings = await SettingsStore.open(deps.storage);
  // A failed save (a full storage.local) is told to the panel, never only logged (issue 14).
  const conversations = await ConversationStore.open(deps.storage, {
    onSaveProblem: (problem) => {
      broadcast({ type: 'storage', problem });
    },
  });
  const restored = await conversations.current();

  const tracker = new ProfileTracker(
    host,
    (profile, settled) => {
      onProfileChange(profile, settled);
    },
    (gone, using) => {
      broadcast({ type: 'profile-gone', name: gone.name, using: using?.name ?? null });
    },
  );
  const router = createToolRouter({
    builtins: deps.builtins,
    host,
    approvals: settings,
    decodeImage: decodeWithImageBitmap,
    // Fixed per run: a tab switch mid-run changes the next run's tools, not this one's.
    profile: async () => (await tracker.forRun())?.id ?? null,
  });
  // The meter is computed from the tools the last run (or snapshot) listed.
  let lastTools: readonly ToolSpec[] = deps.builtins.specs;
  const listTools = async (): Promise<readonly ToolSpec[]> => {
    lastTools = await router.list();
    return lastTools;
  };
  const tools: ToolRouter = {
    // A run waits (bounded) for servers still starting, so it is offered their tools.
    list: async () => {
      await waitForStartingServers(host, deps.serverReadyWaitMs);
      return listTools();
    },
    call: (name, args, signal, prompt, onProgress) =>
      router.call(name, args, signal, prompt, onProgress),
    discovered: () => router.discovered(),
  };

  // The saved provider with the model this conversation chose in the panel (issue 14).
  const settingsFor = withConversationModel();
  const inUse = (): ProviderSettings | null =>
    settingsFor(settings.provider, session.conversation.model);
  const windowInUse = (): (ContextWindow & { readonly model: string }) | null => {
    const current = inUse();
    if (current === null) return null;
    return { ...contextWindowFor(current.model, current.contextWindow), model: current.model };
  };
  const session: AgentSession = new AgentSession({
    provider: settingsProvider(inUse, deps.createProvider),
    tools,
    system: DEFAULT_SYSTEM_PROMPT,
    ...(restored === undefined ? {} : { conversation: restored }),
    contextWindow: () => windowInUse()?.tokens,
    imageRule: () => imageTokenRule(inUse()),
    describe: () => {
      const profile = tracker.current();
      return {
        profile: profile === null ? undefined : { id: profile.id, name: profile.name },
        // The model this conversation starts on: the one it chose in the panel, or the default.
        provider: modelOf(inUse()),
      };
    },
  });
  const listModels = createModelLister(deps.reach ?? UNRESTRICTED_REACH);

  // Declared before the server that uses it; called only once the server exists.
  const broadcast = (event: PageEvent): void => {
    ui.broadcast(event);
    // Another model (or the user's window figure) changes what the meter measures against.
    if (event.type === 'settings') ui.broadcast({ type: 'context', context: meterNow() });
  };
  const meterNow = (): ContextMeter =>
    contextMeter({
      system: DEFAULT_SYSTEM_PROMPT,
      messages: session.conversation.messages,
      notSent: session.conversation.notSent ?? 0,
      tools: lastTools,
      budget: router.budget(),
      window: windowInUse(),
      toolSearch: router.toolSearch(),
      images: imageTokenRule(inUse()),
    });
  const refreshTools = async (): Promise<ContextMeter> => {
    lastTools = await router.preview();
    return meterNow();
  };
  const pushMeter = (meter: ContextMeter): void => {
    broadcast({ type: 'context', context: meter });
  };

  const ui: UiServer = new UiServer({
    extensionId: deps.extensionId,
    extensionOrigin: deps.extensionOrigin,
    handlers: {
      ...createHistoryHandlers({
        session,
        store: conversations,
        broadcast,
        // An opened conversation goes on with the profile it began with (issue 14).
        openedProfile: async (conversation) => {
          if (conversation.profile === undefined) await tracker.unpin();
          else await tracker.pin(conversation.id, conversation.profile);
        },
        pinnedConversation: () => tracker.pinnedConversation(),
      }),
      ...createPageHandlers({
        webAuth: browserWebAuthFlow,
        testConnection: (provider) =>
          testProviderConnection(provider, deps.reach ?? UNRESTRICTED_REACH),
        listModels,
        selection: () => deps.builtins.activeSelection(),
        decodeImage: decodeWithImageBitmap,
        session,
        settings,
        host,
        context: refreshTools,
        profile: () => tracker.current(),
        profileSettled: () => tracker.isSettled(),
        saveProblem: () => conversations.saveProblem,
        run: () => (streaming === null ? null : { ...streaming }),
        broadcast,
        afterHostRequest: (method) => {
          if (method.startsWith('profiles/')) void tracker.refresh();
        },
      }),
    },
  });

  let shownProfile: ActiveProfileView | null = null;
  function onProfileChange(profile: ActiveProfileView | null, settled: boolean): void {
    broadcast({ type: 'profile', profile, settled });
    const changed = profile !== shownProfile;
    shownProfile = profile;
    // Another profile offers other tools: the meter follows (not when only `settled` moved).
    if (changed && ui.pageCount > 0) void refreshTools().then(pushMeter);
  }
  deps.watchActiveTab?.((url) => {
    void tracker.setUrl(url);
  });

  // What a page opened mid-turn needs to show the text streamed so far.
  let streaming: { runId: string; streamingText: string } | null = null;
  /** The conversation as the last `conversation-changed` showed it. */
  let shown: Conversation | null = session.conversation;
  session.subscribe((event) => {
    if (event.type === 'run-started') {
      streaming = { runId: event.runId, streamingText: '' };
    } else if (event.type === 'text-delta') {
      if (streaming?.runId === event.runId) streaming.streamingText += event.text;
    } else if (event.type === 'conversation-changed') {
      // The transcript now holds what was streamed (or a new chat began), unless only the
      // conversation's details changed (a rename, the model picker).
      const kept = shown !== null && sameTranscript(shown, event.conversation);
      streaming =
        session.running && streaming !== null
          ? { ...streaming, streamingText: kept ? streaming.streamingText : '' }
          : null;
      shown = event.conversation;
    } else if (event.type === 'done') {
      streaming = null;
    }
    broadcast({ type: 'agent', event });
    if (event.type === 'conversation-changed') {
      // Another conversation on screen (New Chat): the tab selects the profile again.
      const pinned = tracker.pinnedConversation();
      if (pinned !== undefined && pinned !== event.conversation.id) void tracker.unpin();
      void conversations.save(event.conversation).then(() => {
        broadcast({ type: 'history' });
      });
      pushMeter(meterNow());
    }
  });
  host.onStateChange((state) => {
    broadcast({ type: 'connection', state });
    if (state.state === 'connected') {
      void tracker.refresh().then(refreshTools).then(pushMeter);
    }
  });
  const onHostChange =
    (method: 'notifications/servers/changed' | 'notifications/tools/changed') =>
    (server: string): void => {
      broadcast({ type: 'host', method, server });
      if (ui.pageCount > 0) void refreshTools().then(pushMeter);
    };
  const serversChanged = onHostChange('notifications/servers/changed');
  const toolsChanged = onHostChange('notifications/tools/changed');
  host.on('notifications/servers/changed', ({ server }) => {
    serversChanged(server.name);
  });
  host.on('notifications/tools/changed', ({ server }) => {
    toolsChanged(server);
  });
  // A server's question (issue 12) is the user's to answer in the side panel: with none open it
  // is declined at once, saying why, never left waiting or answered for them.
  host.on('notifications/elicitation/requested', ({ request }) => {
    if (ui.pagesAt(SIDE_PANEL_PATH) > 0) {
      broadcast({ type: 'elicitation', id: request.id });
      return;
    }
    const decline = { id: request.id, action: 'decline', unanswered: 'no-page' } as const;
    host.request('elicitation/respond', decline).catch((error: unknown) => {
      console.warn('[switchyard] could not decline a question', error);
    });
  });
  host.on('notifications/resources/changed', ({ server }) => {
    broadcast({ type: 'host', method: 'notifications/resources/changed', server });
  });
  host.on('notifications/elicitation/settled', ({ id }) => {
    broadcast({ type: 'elicitation', id });
  });
  broadcast(settingsEvent(settings));

  return {
    session,
    settings,
    acceptPort: (port) => ui.accept(port),
  };
}
