import path from 'node:path';
import { PROTOCOL_VERSION } from '../../protocol/methods';
import { CANCEL_REASON, type Handlers } from './dispatcher';
import type { HostCore } from './core';
import { HostError } from './host-error';

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
}

export function createHandlers({ core, home, version, configWarnings }: HandlerContext): Handlers {
  return {
    'host/hello': (params) => {
      if (params.protocolVersion !== PROTOCOL_VERSION) {
        return Promise.reject(
          new HostError(
            'protocol-mismatch',
            `This host speaks protocol ${PROTOCOL_VERSION}, the extension ${params.protocolVersion}. Update both to the same release (run 'switchyard install' again).`,
            { supported: [PROTOCOL_VERSION] },
          ),
        );
      }
      return Promise.resolve({
        protocolVersion: PROTOCOL_VERSION,
        host: { name: 'switchyard', version },
        home,
        configWarnings: [...configWarnings()],
      });
    },
    'servers/list': () => Promise.resolve({ servers: core.listServers() }),
    'servers/start': async ({ server }) => ({ server: await core.start(server) }),
    'servers/stop': async ({ server }) => ({ server: await core.stop(server) }),
    'servers/restart': async ({ server }) => ({ server: await core.restart(server) }),
    'servers/logs': ({ server, limit }) => {
      const { lines, dropped } = core.logs(server, limit);
      return Promise.resolve({ server, lines, dropped });
    },
    'tools/list': (params) =>
      Promise.resolve(
        core.listTools(params?.server, { includeDenied: params?.includeDenied === true }),
      ),
    'tools/call': ({ name, arguments: args, approval }, context) =>
      core
        .callTool(name, args, {
          ...(approval === undefined ? {} : { approval }),
          signal: context.signal,
          onprogress: (progress) => {
            context.notify('notifications/progress', { requestId: context.id, ...progress });
          },
        })
        .catch((error: unknown) => {
          if (context.signal.aborted && context.signal.reason !== CANCEL_REASON) {
            throw new HostError('cancelled', 'The host is shutting down.', {});
          }
          throw error;
        }),
    'approvals/deny': ({ requestId }) => Promise.resolve({ denied: core.denyApproval(requestId) }),
    'policy/set': ({ tool, policy }) => core.setPolicy(tool, policy),
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
  };
}
