import path from 'node:path';
import { CANCEL_REASON, type Handlers } from './dispatcher';
import type { HostCore } from '../host/core';
import { HostError } from '../shared/host-error';
import type { LiveConfig } from '../host/live-config';
import type { HostImportContext } from './import-handlers';
import { helloAnswer } from './hello';
import { listingPage } from './listing-pages';
import type { HostRuntime } from '../../protocol/hello';
import { MAX_URI_CHARS } from '../../protocol/resources';
import { expandTemplate } from '../mcp/uri-template';

/**
 * The protocol's request methods, each a thin adapter from validated params to the core.
 * docs/protocol.md documents every one; the dispatcher has already validated the params.
 */

export interface HandlerContext {
  readonly core: HostCore;
  readonly home: string;
  readonly version: string;
  /** Problems found while loading configuration, reported by `host/hello`. */
  readonly configWarnings: () => readonly string[];
  /** The Node that runs the host, reported by `host/hello`. */
  readonly runtime: HostRuntime | null;
  /** Writes and reloads config.json; absent when the host has no configuration file. */
  readonly liveConfig?: LiveConfig;
}

export function createHandlers({
  core,
  home,
  version,
  configWarnings,
  runtime,
  liveConfig,
}: HandlerContext): Handlers {
  const live = (): LiveConfig => {
    if (liveConfig) return liveConfig;
    throw new HostError(
      'config-invalid',
      'This host has no configuration file to write (SWITCHYARD_HOME cannot be determined); see host/hello for why.',
    );
  };
  const exclusive = <T>(write: () => Promise<T>): Promise<T> =>
    liveConfig ? liveConfig.exclusive(write) : write();
  return {
    'host/hello': (params) => {
      const answer = helloAnswer(params, {
        version,
        home,
        configWarnings: configWarnings(),
        runtime,
      });
      return answer.ok ? Promise.resolve(answer.result) : Promise.reject(answer.error);
    },
    'servers/list': () => Promise.resolve({ servers: core.listServers() }),
    'auth/begin': ({ server, redirectUri }) => core.signIns.begin(server, redirectUri),
    'auth/complete': async ({ flowId, callbackUrl }) => ({
      status: await core.signIns.complete(flowId, callbackUrl),
    }),
    'auth/status': async ({ server }) => ({ status: await core.signIns.status(server) }),
    'auth/signOut': ({ server }) => core.signIns.signOut(server),
    'servers/start': async ({ server }) => ({ server: await core.start(server) }),
    'servers/stop': async ({ server }) => ({ server: await core.stop(server) }),
    'servers/restart': async ({ server }) => ({ server: await core.restart(server) }),
    'servers/add': async (params) => ({ server: await live().addServer(params) }),
    'servers/remove': async ({ server }) => {
      await live().removeServer(server);
      return { removed: true };
    },
    'servers/update': async ({ server, ...edit }) => ({
      server: await live().updateServer(server, edit),
    }),
    'servers/setApps': async ({ server, enabled }) => ({
      server: await live().setApps(server, enabled),
    }),
    'servers/logs': ({ server, limit }) => {
      const { lines, dropped } = core.logs(server, limit);
      return Promise.resolve({ server, lines, dropped });
    },
    'tools/list': (params) =>
      Promise.resolve(
        listingPage(
          core.listTools(params?.server, {
            includeDenied: params?.includeDenied === true,
            includeAppOnly: params?.includeAppOnly === true,
            ...(params?.profile === undefined ? {} : { profile: params.profile }),
          }),
          params?.cursor,
        ),
      ),
    'tools/call': ({ name, arguments: args, approval, profile, app }, context) =>
      core
        .callTool(name, args, {
          ...(approval === undefined ? {} : { approval }),
          ...(profile === undefined ? {} : { profile }),
          ...(app === undefined ? {} : { app }),
          cancellation: context.cancellation,
          onprogress: (progress) => {
            context.notify('notifications/progress', { requestId: context.id, ...progress });
          },
        })
        .catch((error: unknown) => {
          const { cancellation } = context;
          if (cancellation.cancelled && cancellation.reason !== CANCEL_REASON) {
            throw new HostError('cancelled', 'The host is shutting down.', {});
          }
          throw error;
        }),
    'approvals/deny': ({ requestId }) => Promise.resolve({ denied: core.denyApproval(requestId) }),
    // Writes of config.json and their effect happen with no reload in between (a reload could
    // apply the older file).
    'policy/set': ({ tool, policy }) => exclusive(() => core.setPolicy(tool, policy)),
    'policy/setMany': ({ rules }) => exclusive(() => core.setPolicies(rules)),
    'profiles/list': () => Promise.resolve(core.listProfiles()),
    'profiles/set': ({ profile }) => exclusive(() => core.setProfile(profile)),
    'profiles/remove': async ({ id }) => ({
      removed: await exclusive(() => core.removeProfile(id)),
    }),
    'profiles/resolve': ({ url }) => Promise.resolve(core.resolveProfile(url)),
    'trust/pending': () => Promise.resolve({ requests: core.pendingConsents() }),
    'trust/approve': async ({ server, fingerprint }) => ({
      server: await core.approveLaunch(server, fingerprint),
    }),
    'trust/revoke': async (params) => {
      if ('workspace' in params && !path.isAbsolute(params.workspace)) {
        throw new HostError(
          'invalid-params',
          `'${params.workspace}' is not a workspace folder: give the absolute path listed in "workspaces".`,
        );
      }
      return { servers: await core.revokeLaunch(params) };
    },
    'trust/forget': async ({ server, workspace, user }) => {
      if (workspace !== undefined && !path.isAbsolute(workspace)) {
        throw new HostError(
          'invalid-params',
          `'${workspace}' is not a workspace folder: give the absolute path listed in "workspaces".`,
        );
      }
      return await core.forgetLaunch(server, user === true ? 'user' : workspace);
    },
    'trust/list': () => core.listApprovals(),
    'activity/list': (params) => core.activity(params ?? {}),
    'resources/list': (params) => core.context.listResources(params ?? {}),
    'resources/templates/list': (params) => core.context.listTemplates(params ?? {}),
    'resources/templates/expand': ({ uriTemplate, arguments: values }) => {
      const expansion = expandTemplate(uriTemplate, values, MAX_URI_CHARS);
      if (!expansion.ok) throw new HostError('invalid-params', expansion.reason);
      return Promise.resolve({ uri: expansion.uri });
    },
    'resources/read': ({ server, uri, profile }, context) =>
      core.context.read(server, uri, profile, { cancellation: context.cancellation }),
    'apps/read': ({ server, uri, part, profile }, context) =>
      core.context.readApp(server, uri, part ?? 0, profile, { cancellation: context.cancellation }),
    'resources/subscribe': async ({ server, uri, profile }) => ({
      subscribed: await core.context.subscribe(server, uri, profile),
    }),
    'resources/unsubscribe': async ({ server, uri }) => ({
      unsubscribed: await core.context.unsubscribe(server, uri),
    }),
    'prompts/list': (params) => core.context.listPrompts(params ?? {}),
    'prompts/get': ({ server, name, arguments: args, profile }, context) =>
      core.context.getPrompt(server, name, args, profile, { cancellation: context.cancellation }),
    'elicitation/pending': () => Promise.resolve({ requests: core.elicitations.pending() }),
    'elicitation/respond': ({ id, action, content, unanswered }) => {
      core.elicitations.respond(id, action, content, unanswered);
      return Promise.resolve({ settled: true as const });
    },
    'completion/complete': ({ server, ref, argument, context: filled, profile }) =>
      core.context.complete(server, ref, argument, filled, profile),
    ...lazyImportHandlers({ home, live }),
  };
}

type ImportHandlers = Pick<Handlers, 'import/preview' | 'import/apply'>;

/**
 * The options page's import, loaded on its first request: the converters of seven clients'
 * configs and jsonc-parser were evaluated on every start of the host (about 20 ms of the second
 * stage, while the servers boot), for a page most starts never open.
 */
function lazyImportHandlers(context: HostImportContext): ImportHandlers {
  let loaded: Promise<ImportHandlers> | undefined;
  const handlers = (): Promise<ImportHandlers> =>
    (loaded ??= import('./import-handlers').then((module) => module.importHandlers(context)));
  return {
    'import/preview': async (params, request) =>
      (await handlers())['import/preview'](params, request),
    'import/apply': async (params, request) => (await handlers())['import/apply'](params, request),
  };
}
