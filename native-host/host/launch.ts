import type { FetchLike, OAuthClientProvider } from '@modelcontextprotocol/client';
import { missingVariablesMessage, resolveVariables } from '../config/variables';
import type { SecretStore } from '../secrets/secret-store';
import { SwitchyardOAuthProvider } from '../auth/oauth-provider';
import { resolveClient } from '../auth/pre-registered-client';
import { MachineClientProvider } from '../auth/machine-client';
import { crossAppAssertion } from '../auth/cross-app-access';
import { AuthFlowError } from '../auth/auth-errors';
import { expandEnvValue } from '../config/env';
import { OAuthRecords } from '../auth/records';
import { describeAuthError } from '../auth/auth-errors';
import type { PreRegisteredClient, RemoteEndpoint } from '../shared/server-spec';
import { canonicalResource } from '../auth/resource';
import { connectRemote } from './remote-launch';
import { LaunchError, type LaunchFn } from '../mcp/runtime-types';
import { spawnStdio, type StdioLaunchOptions } from './launch-stdio';

export type { GroupWatcher } from './launch-stdio';

/**
 * The production launcher: spawns the program the host resolved at load time (never from the cwd
 * or a relative PATH entry, design D6), builds the child's minimal environment (D5) and spawns the server in its own
 * process group through ProcessTransport (D1). `${VAR}` values come from the environment, then
 * the secret store (config/variables.ts); the fingerprint never sees them (it covers the entry's
 * text, trust/fingerprint.ts). The process is started here, before the SDK's
 * `connect`, so a spawn failure is reported as such and not as a failed handshake.
 */

export interface LaunchOptions extends StdioLaunchOptions {
  /**
   * `oauthClientMetadataUrl` in config.json: a client registered by URL is recognised. Read at
   * each connection, so a config reload that changes it applies to the next one.
   */
  readonly clientMetadataUrl?: () => string | undefined;
  /** The fetch remote servers are reached with; default the global one. */
  readonly fetch?: FetchLike;
}

/**
 * The OAuth provider a remote server's connection signs its requests with: the tokens a sign-in
 * stored (popup or `switchyard auth`), refreshed as they expire. It has no user agent, so a
 * server that needs a fresh sign-in fails as `auth-required` and nothing is registered or
 * opened behind the user's back (decision 0018). Without a usable secret store there are no
 * tokens to send: the server is reached without OAuth. A pre-registered client (`oauth`) is
 * resolved here, so a refresh can present its secret; a secret set nowhere fails the start by
 * name.
 */
async function backgroundAuthProvider(
  server: string,
  remote: RemoteEndpoint,
  options: LaunchOptions,
): Promise<OAuthClientProvider | undefined> {
  const serverUrl = remote.url;
  const resource = canonicalResource(serverUrl);
  if (resource === undefined) return undefined;
  const store = await openStore(options);
  if (remote.oauth?.grant !== undefined) {
    return machineProvider(server, remote.oauth, resource, store, options);
  }
  if (store === undefined) return undefined;
  let preRegistered;
  if (remote.oauth !== undefined) {
    const resolved = await resolveClient(server, remote.oauth, {
      env: options.hostEnv,
      platform: options.platform,
      store: () => Promise.resolve(store),
    });
    if (!resolved.ok) throw new LaunchError('missing-variable', resolved.message);
    preRegistered = resolved.client;
  }
  const metadataUrl = options.clientMetadataUrl?.();
  const provider = new SwitchyardOAuthProvider({
    server,
    serverUrl,
    resource,
    store,
    ...(preRegistered === undefined ? {} : { preRegistered }),
    ...(metadataUrl === undefined ? {} : { clientMetadataUrl: metadataUrl }),
    ...(options.fetch ? { fetchFn: options.fetch } : {}),
  });
  // An entry that sends its own `Authorization` (an API key) chose static auth: its 401 is a
  // wrong key, reported with the server's answer, not a sign-in to offer. Unless the user signed
  // in anyway (then the token wins over the header, as the SDK does).
  const staticAuth = Object.keys(remote.headers).some((h) => h.toLowerCase() === 'authorization');
  if (
    staticAuth &&
    remote.oauth === undefined &&
    (await provider.records.read('tokens')) === undefined
  ) {
    return undefined;
  }
  return provider;
}

/** The secret store, or undefined when there is none or it cannot be opened. */
async function openStore(options: LaunchOptions): Promise<SecretStore | undefined> {
  try {
    return await options.secrets?.();
  } catch {
    return undefined;
  }
}

/**
 * A machine-to-machine client (decision 0024), or a cross-app access one (decision 0032, whose
 * ID token is read from its variable at each grant): its secret or key resolved like a header value
 * (the environment, then the store; a missing one fails the start by name), its first-use
 * issuer pinned in the store. It needs no sign-in, so it works without a store too (the secret
 * then comes from the environment and the pin lasts for this connection).
 */
async function machineProvider(
  server: string,
  client: PreRegisteredClient,
  resource: string,
  store: SecretStore | undefined,
  options: LaunchOptions,
): Promise<MachineClientProvider> {
  const resolved = await resolveClient(server, client, {
    env: options.hostEnv,
    platform: options.platform,
    ...(store === undefined ? {} : { store: () => Promise.resolve(store) }),
  });
  if (!resolved.ok) throw new LaunchError('missing-variable', resolved.message);
  const records = store === undefined ? undefined : new OAuthRecords(store, server, resource);
  const idp = resolved.client.grant === 'cross-app-access' ? resolved.client.idp : undefined;
  try {
    return await MachineClientProvider.create({
      server,
      client: resolved.client,
      ...(idp === undefined
        ? {}
        : {
            assertion: crossAppAssertion({
              server,
              idp,
              // Read at each grant, never kept: the ID token expires within the hour.
              resolve: async (reference, what) => {
                const variables = await resolveVariables([reference], {
                  env: options.hostEnv,
                  platform: options.platform,
                  ...(store === undefined ? {} : { store: () => Promise.resolve(store) }),
                });
                const value = expandEnvValue(reference, variables.lookup).value;
                if (variables.missing.length > 0 || value === '') {
                  // Not `sign-in-required`: there is no sign-in that would help, only the variable.
                  throw new AuthFlowError(
                    'authorization-server',
                    `'${server}': ${reference} (${what}, oauth.idp) is not set; set it with \`switchyard secret set\` or export it, then restart the server.`,
                  );
                }
                return value;
              },
              ...(options.fetch ? { fetchFn: options.fetch } : {}),
            }),
          }),
      ...(records === undefined
        ? {}
        : {
            pin: {
              read: async () => (await records.read('issuer'))?.issuer,
              write: (issuer) => records.write('issuer', { resource, issuer }),
            },
          }),
    });
  } catch (error) {
    throw new LaunchError('spawn-failed', describeAuthError(error, server).message);
  }
}

export function createLauncher(options: LaunchOptions): LaunchFn {
  return async (launch) => {
    if (launch.remote !== null) {
      // Header values resolve like env values: the environment, then the secret store.
      const variables = await resolveVariables(Object.values(launch.remote.headers), {
        env: options.hostEnv,
        platform: options.platform,
        ...(options.secrets ? { store: options.secrets } : {}),
      });
      if (variables.missing.length > 0) {
        throw new LaunchError('missing-variable', missingVariablesMessage(launch.name, variables));
      }
      const authProvider = await backgroundAuthProvider(launch.name, launch.remote, options);
      return connectRemote(launch.name, launch.remote, {
        lookup: variables.lookup,
        ...(authProvider ? { authProvider } : {}),
        platform: options.platform,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(options.onStderrLine
          ? { onLogLine: (server: string, line: string) => options.onStderrLine?.(server, line) }
          : {}),
      });
    }
    return spawnStdio(launch, options);
  };
}
