import { isRecord } from '../../protocol/guards';
import { isRequestMethod, paramsSchemaOf, type RequestMethod } from '../../protocol/methods';
import { isPageHostMethod } from '../messaging/page-host-methods';
import {
  type HistoryMethod,
  type ActiveProfileView,
  type ContextMeter,
  type ModelListing,
  type PageEvent,
  type PageSelection,
  type SessionSnapshot,
} from '../messaging/ui-protocol';
import type { ConnectionTestResult } from '../messaging/connection-test';
import type { HistorySaveProblem } from '../messaging/history';
import { viewOfProviderSettings, type ProviderSettings } from '../messaging/provider';
import { RunInProgressError, type AgentSession } from './agent-session';
import type { HostClient } from './host-client';
import { composerAttachments, readAttachments } from './attachments';
import type { ImageDecoder } from './image-content';
import { callMcpTool } from './tool-router';
import { NO_PROVIDER_MESSAGE } from './providers/settings-provider';
import type { SettingsStore } from './stores/settings-store';
import type { PageHandlers } from './ui-server';
import { signInThroughBrowser, type WebAuthFlow } from './web-auth';

/**
 * What each page request does in the worker: the chat goes to the AgentSession, settings to the
 * SettingsStore, and host requests to the HostClient after two checks (the method is not one of
 * the agent's own, and its params parse against the protocol's schema).
 */

/**
 * Host requests the side panel makes for the chat, scoped by the tab's profile (`profile`
 * param): the pickers' listings, and what is read from them or for an app.
 */
const CHAT_READS: ReadonlySet<RequestMethod> = new Set<RequestMethod>([
  'resources/list',
  'resources/templates/list',
  'prompts/list',
  'resources/read',
  'resources/subscribe',
  'prompts/get',
  'completion/complete',
  'apps/read',
]);

/** Why a send was refused when another conversation was opened while its attachments were read. */
export const CONVERSATION_CHANGED_MESSAGE =
  'Another conversation was opened while the attached resources were read, so the message was not sent. It is still in the box: send it again where you want it.';

/** Why a read or call for the chat was refused while the tab's profile is unknown. */
export const PROFILE_UNKNOWN_MESSAGE =
  "The profile of the active tab could not be resolved, so nothing of your servers' is read or called for this chat right now. Reload the tab, or retry once the host answers.";

export class PageRequestRefused extends Error {
  constructor(
    message: string,
    readonly reason: string,
  ) {
    super(message);
    this.name = 'PageRequestRefused';
  }
}

export interface PageHandlerDeps {
  readonly session: AgentSession;
  readonly settings: SettingsStore;
  readonly host: Pick<HostClient, 'state' | 'request' | 'connect'>;
  /** The meter as of now (recomputed from the last tool listing). */
  readonly context: () => Promise<ContextMeter | null>;
  readonly profile: () => ActiveProfileView | null;
  /** Whether `profile()` is the host's answer (SessionSnapshot.profileSettled). */
  readonly profileSettled: () => boolean;
  /** Why the last save of the conversations failed; null when it succeeded (issue 14). */
  readonly saveProblem?: () => HistorySaveProblem | null;
  /** The run in progress and its text streamed since the transcript last changed. */
  readonly run: () => SessionSnapshot['run'];
  readonly broadcast: (event: PageEvent) => void;
  /** Decodes attached images before they are sent (image-decode.ts); absent: not decoded. */
  readonly decodeImage?: ImageDecoder;
  /** Called after a page's host request succeeded (e.g. profiles changed: resolve again). */
  readonly afterHostRequest?: (method: RequestMethod) => void;
  /** The browser's sign-in window (`identity.launchWebAuthFlow`). */
  readonly webAuth: WebAuthFlow;
  /** Test connection (issue 14): one request to the provider, its cause named. */
  readonly testConnection: (settings: ProviderSettings) => Promise<ConnectionTestResult>;
  /** The active tab's selection for "Add context" (builtin-tools.ts); absent: none offered. */
  readonly selection?: () => Promise<PageSelection>;
  /** The provider's models for the panel's picker (providers/model-list.ts). */
  readonly listModels: (settings: ProviderSettings) => Promise<ModelListing>;
}

export function settingsEvent(settings: SettingsStore): PageEvent {
  const { provider } = settings;
  return {
    type: 'settings',
    provider: provider === null ? null : viewOfProviderSettings(provider),
    autopilot: settings.autopilot(),
  };
}

/** Every page request but the history's (history-handlers.ts). */
export function createPageHandlers(deps: PageHandlerDeps): Omit<PageHandlers, HistoryMethod> {
  const { session, settings, host } = deps;
  /**
   * The profile a read or call on the model's behalf goes with (an attached resource, an app's
   * tool call). Connected but unresolved, it is refused rather than sent without one, which the
   * host would read as its default profile (fail closed, as a run's tools are).
   */
  const profileForCall = (): { profile?: string } => {
    const profile = deps.profile();
    if (profile !== null) return { profile: profile.id };
    // While connecting, a request waits for the handshake and would then go without one.
    const { state } = host.state;
    if (state === 'connected' || state === 'connecting') {
      throw new PageRequestRefused(PROFILE_UNKNOWN_MESSAGE, 'profile-unknown');
    }
    return {};
  };
  return {
    'session/snapshot': async (): Promise<SessionSnapshot> => {
      // The meter may wait for the host's tool listing; every other field is read after it, so
      // the snapshot is no older than the events the page received while it waited (it replaces
      // what they said: a state captured before the wait would undo "connected", a new provider).
      const context = await deps.context();
      const { provider } = settings;
      return {
        conversation: session.conversation,
        running: session.running,
        run: deps.run(),
        pendingApprovals: session.pendingApprovals(),
        connection: host.state,
        provider: provider === null ? null : viewOfProviderSettings(provider),
        autopilot: settings.autopilot(),
        context,
        profile: deps.profile(),
        profileSettled: deps.profileSettled(),
        saveProblem: deps.saveProblem?.() ?? null,
      };
    },
    'chat/send': async ({ text, attachments, files }) => {
      if (settings.provider === null) {
        throw new PageRequestRefused(NO_PROVIDER_MESSAGE, 'no-provider');
      }
      const media = await composerAttachments(files ?? [], undefined, deps.decodeImage);
      if (!media.ok) throw new PageRequestRefused(media.problem, 'invalid-attachment');
      const running = (): boolean => session.running;
      if (running()) throw new RunInProgressError();
      const conversationId = session.conversation.id;
      // Read before the run starts: a resource that cannot be read fails the send, loudly.
      const read =
        attachments === undefined || attachments.length === 0
          ? []
          : await readAttachments(host, attachments, profileForCall().profile);
      // Another send may have started while the resources were read.
      if (running()) throw new RunInProgressError();
      // Or another conversation be on screen (New Chat, the history): the message, and what it
      // attached, belong to the one it was written in, not to whichever is shown now.
      if (session.conversation.id !== conversationId) {
        throw new PageRequestRefused(CONVERSATION_CHANGED_MESSAGE, 'conversation-changed');
      }
      const done = session.send(text, read, { images: media.images, files: media.files });
      const runId = session.runId;
      // The run reports its end as events; a failure to start is the only thing to answer here.
      done.catch((error: unknown) => {
        console.error('[switchyard] the agent run failed', error);
      });
      return runId === undefined ? done.then(() => ({ runId: '' })) : { runId };
    },
    'chat/resend': ({ index, text }) => {
      if (settings.provider === null) {
        throw new PageRequestRefused(NO_PROVIDER_MESSAGE, 'no-provider');
      }
      const done = session.resend(index, text);
      const runId = session.runId;
      done.catch((error: unknown) => {
        console.error('[switchyard] the agent run failed', error);
      });
      // A refusal (a run going, not a user message) throws before any run starts.
      return runId === undefined ? done.then(() => ({ runId: '' })) : Promise.resolve({ runId });
    },
    'chat/stop': async () => {
      await session.stop();
      return {};
    },
    'chat/cancelCall': ({ callId }) => Promise.resolve({ cancelled: session.cancelCall(callId) }),
    'chat/new': () => Promise.resolve({ conversation: session.newChat() }),
    'page/selection': () =>
      deps.selection?.() ??
      Promise.resolve({ ok: false, problem: 'This browser offers no page selection here.' }),
    'models/list': async () => {
      const { provider } = settings;
      if (provider === null) return { models: [], problem: NO_PROVIDER_MESSAGE };
      return await deps.listModels(provider);
    },
    'chat/setModel': ({ model }) =>
      Promise.resolve({ conversation: session.setModel(model ?? undefined) }),
    'approval/resolve': ({ approvalId, decision }) =>
      Promise.resolve({ resolved: session.resolveApproval(approvalId, decision) }),
    'autopilot/set': async ({ on }) => {
      await settings.setAutopilot(on);
      deps.broadcast(settingsEvent(settings));
      return { autopilot: settings.autopilot() };
    },
    'settings/get': () => {
      const { provider } = settings;
      return Promise.resolve({
        provider: provider === null ? null : viewOfProviderSettings(provider),
      });
    },
    'settings/set': async ({ provider, forgetApiKey }) => {
      const saved = await settings.setProvider(
        provider,
        forgetApiKey === undefined ? {} : { forgetApiKey },
      );
      deps.broadcast(settingsEvent(settings));
      return { provider: viewOfProviderSettings(saved) };
    },
    'provider/test': async ({ provider }) => {
      // Refused (a sentence) when the form lacks what a request needs, e.g. a key to send.
      const resolved = settings.resolveProvider(provider);
      return await deps.testConnection(resolved);
    },
    'host/request': async ({ method, params }) => {
      if (!isRequestMethod(method) || !isPageHostMethod(method)) {
        throw new PageRequestRefused(
          `'${method}' cannot be requested from a page.`,
          'unknown-method',
        );
      }
      // What a page lists or reads for the chat (the pickers, an app's resources, a prompt) goes
      // with the tab's profile; without one, the host would answer for its default.
      if (CHAT_READS.has(method) && isRecord(params) && params['profile'] === undefined) {
        profileForCall();
      }
      const result = await relay(host, method, params);
      deps.afterHostRequest?.(method);
      return result;
    },
    'apps/call': async ({ server, name, arguments: args }) => {
      // The card expires with the host's approval; a page that closes leaves it to expire.
      const controller = new AbortController();
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        const outcome = await callMcpTool(host, name, args, {
          app: { server },
          ...profileForCall(),
          ask: (request) => {
            const expiresIn = Math.max(0, request.expiresAt - Date.now());
            timer = setTimeout(() => {
              controller.abort();
            }, expiresIn);
            return session.askForApp(server, { kind: 'mcp', request }, controller.signal);
          },
        });
        return outcome.status === 'result'
          ? { kind: 'result', result: outcome.result }
          : { kind: 'denied' };
      } finally {
        clearTimeout(timer);
      }
    },
    'host/reconnect': () => {
      host.connect();
      return Promise.resolve({});
    },
    'auth/signIn': async ({ server }) => ({
      status: await signInThroughBrowser(host, deps.webAuth, server),
    }),
  };
}

function relay(
  host: Pick<HostClient, 'request'>,
  method: RequestMethod,
  raw: unknown,
): Promise<unknown> {
  return host.request(method, paramsSchemaOf(method).parse(raw));
}
