import { randomBytes } from 'node:crypto';
import type { FetchLike } from '@modelcontextprotocol/client';
import type { SignInFailureKind, SignInStatus } from '../../protocol/auth';
import { AuthFlowError, describeAuthError } from '../auth/auth-errors';
import { SwitchyardOAuthProvider } from '../auth/oauth-provider';
import { machineNeedsNoSignIn } from '../auth/machine-client';
import { readUnbound } from '../auth/records';
import { canonicalResource } from '../auth/resource';
import { signIn } from '../auth/sign-in';
import { describeTokens, type SignInStatus as AuthSignInStatus } from '../auth/sign-in-status';
import { signOut, type SignOutResult } from '../auth/sign-out';
import type { ClientResolution } from '../auth/pre-registered-client';
import type { UserAgent } from '../auth/user-agent';
import type { SecretStore } from '../secrets/secret-store';
import { HostError } from '../shared/host-error';

/**
 * Sign-in from the browser (issue 11 item 3, decision 0018): `auth/begin` starts the SDK's flow
 * with a user agent that, instead of opening a page, hands the authorization URL back to the
 * extension; the extension runs `identity.launchWebAuthFlow` and `auth/complete` brings the
 * redirect back, which the provider checks (redirect, `state`, `iss`) before the code is
 * exchanged. The flow, the PKCE verifier and the tokens stay in this process and the secret
 * store; the extension sees a URL going out and a URL coming back.
 */

/** How long a begun sign-in waits for its callback (the user reading a consent page). */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;
/** Sign-ins in progress at once (a page that begins and never completes cannot pile them up). */
const MAX_FLOWS = 8;

export interface SignInFlowsOptions {
  readonly store: () => Promise<SecretStore>;
  /** The remote URL of a configured server; throws HostError for an unknown or local one. */
  readonly remoteUrl: (server: string) => string;
  /**
   * The server's pre-registered OAuth client (its entry's `oauth`), its secret resolved; absent
   * or resolving to undefined, the client registers dynamically.
   */
  readonly preRegisteredClient?: (server: string) => Promise<ClientResolution | undefined>;
  /**
   * Switchyard's client ID metadata document (SEP-991), used where the server offers it; read at
   * each sign-in, so a config reload that changes it applies to the next one.
   */
  readonly clientMetadataUrl?: () => string | undefined;
  /** Called after tokens were stored or deleted: restart the server so it uses them. */
  readonly afterChange: (server: string) => Promise<void>;
  readonly fetch?: FetchLike;
  readonly timeoutMs?: number;
}

interface Flow {
  readonly server: string;
  /** Settles with the callback URL, or rejects (cancelled, timed out). */
  deliver(callbackUrl: string): void;
  fail(error: AuthFlowError): void;
  readonly done: Promise<AuthSignInStatus>;
  readonly timer: NodeJS.Timeout;
}

export class SignInFlows {
  private readonly flows = new Map<string, Flow>();

  constructor(private readonly options: SignInFlowsOptions) {}

  /** Starts a sign-in; resolves once the SDK has the authorization URL (discovery, registration,
   * PKCE done), or rejects with `sign-in-failed` if it cannot get that far. */
  async begin(
    server: string,
    redirectUri: string,
  ): Promise<{ flowId: string; authorizationUrl: string }> {
    const serverUrl = this.options.remoteUrl(server);
    const resource = canonicalResource(serverUrl);
    if (resource === undefined) {
      throw new HostError('invalid-params', `'${server}' has no URL tokens could be issued for.`);
    }
    for (const [id, flow] of this.flows) {
      // One sign-in per server: a second Sign in replaces the first.
      if (flow.server === server) this.abandon(id, 'cancelled', 'another sign-in started');
    }
    if (this.flows.size >= MAX_FLOWS) {
      throw new HostError('busy', 'Too many sign-ins are waiting; finish or close one first.');
    }
    const flowId = randomBytes(16).toString('base64url');
    const urlReady = deferred<string>();
    const callback = deferred<string>();
    const agent: UserAgent = {
      redirectUri,
      authorize: (authorizationUrl) => {
        urlReady.resolve(authorizationUrl.href);
        return callback.promise;
      },
    };
    const client = await this.options.preRegisteredClient?.(server);
    if (client?.ok === true && client.client.grant !== undefined) {
      throw new HostError('sign-in-failed', machineNeedsNoSignIn(server, client.client.grant), {
        kind: 'authorization-server' satisfies SignInFailureKind,
      });
    }
    if (client?.ok === false) {
      throw new HostError('sign-in-failed', client.message, {
        kind: 'sign-in-required' satisfies SignInFailureKind,
      });
    }
    const metadataUrl = this.options.clientMetadataUrl?.();
    const provider = new SwitchyardOAuthProvider({
      server,
      serverUrl,
      resource,
      store: await this.openStore(),
      userAgent: agent,
      ...(client === undefined ? {} : { preRegistered: client.client }),
      ...(metadataUrl === undefined ? {} : { clientMetadataUrl: metadataUrl }),
      ...(this.options.fetch ? { fetchFn: this.options.fetch } : {}),
    });
    const done = signIn(provider, serverUrl, this.options.fetch);
    const timer = setTimeout(() => {
      this.abandon(flowId, 'timeout', 'the sign-in page was not finished within 5 minutes');
    }, this.options.timeoutMs ?? SIGN_IN_TIMEOUT_MS);
    timer.unref();
    this.flows.set(flowId, {
      server,
      deliver: (url) => {
        callback.resolve(url);
      },
      fail: (error) => {
        callback.reject(error);
      },
      done,
      timer,
    });
    // Either the SDK asks for the page, or the flow fails before it (unreachable, refused).
    const first = await Promise.race([
      urlReady.promise.then((url) => ({ url })),
      done.then(
        () => ({
          error: new AuthFlowError('sign-in-required', 'the sign-in ended without a page'),
        }),
        (error: unknown) => ({ error }),
      ),
    ]);
    if ('error' in first) {
      this.forget(flowId);
      throw signInFailed(first.error, server);
    }
    done.catch(() => undefined); // completed or abandoned: observed there
    return { flowId, authorizationUrl: first.url };
  }

  /** Finishes a sign-in with the browser's callback URL (null: the user closed the window). */
  async complete(flowId: string, callbackUrl: string | null): Promise<SignInStatus> {
    const flow = this.flows.get(flowId);
    if (flow === undefined) {
      throw new HostError(
        'sign-in-failed',
        'This sign-in is no longer in progress (finished, replaced or timed out); sign in again.',
        { kind: 'invalid-callback' satisfies SignInFailureKind },
      );
    }
    if (callbackUrl === null) {
      this.abandon(flowId, 'cancelled', 'the sign-in window was closed');
    } else {
      flow.deliver(callbackUrl);
    }
    try {
      const status = await flow.done;
      await this.options.afterChange(flow.server);
      return toWire(status);
    } catch (error) {
      throw signInFailed(error, flow.server);
    } finally {
      this.forget(flowId);
    }
  }

  async status(server: string): Promise<SignInStatus | null> {
    const url = this.options.remoteUrl(server);
    const record = await readUnbound(await this.openStore(), server, 'tokens');
    // Tokens stored for another URL are not this server's sign-in (they are never sent to it).
    if (record === undefined || record.resource !== canonicalResource(url)) return null;
    return toWire(describeTokens(server, record));
  }

  async signOut(server: string): Promise<SignOutResult> {
    this.options.remoteUrl(server);
    for (const [id, flow] of this.flows) {
      if (flow.server === server) this.abandon(id, 'cancelled', 'signed out');
    }
    const result = await signOut(await this.openStore(), server, this.options.fetch);
    if (result.deleted > 0) await this.options.afterChange(server);
    return result;
  }

  /**
   * A server taken out of the configuration: its sign-ins in progress end, and its tokens are
   * revoked and deleted as by `signOut` (where they were issued, never elsewhere). Unlike
   * `signOut`, the server need not be configured any more.
   */
  async forgetRemoved(server: string): Promise<SignOutResult> {
    for (const [id, flow] of this.flows) {
      if (flow.server === server) this.abandon(id, 'cancelled', 'the server was removed');
    }
    return signOut(await this.openStore(), server, this.options.fetch);
  }

  /** Cancels every sign-in in progress (the host is stopping). */
  close(): void {
    for (const id of [...this.flows.keys()]) this.abandon(id, 'cancelled', 'the host stopped');
  }

  private abandon(flowId: string, kind: 'cancelled' | 'timeout', why: string): void {
    const flow = this.flows.get(flowId);
    if (flow === undefined) return;
    flow.fail(new AuthFlowError(kind, `'${flow.server}': sign-in stopped: ${why}.`));
    this.forget(flowId);
  }

  private forget(flowId: string): void {
    const flow = this.flows.get(flowId);
    if (flow === undefined) return;
    clearTimeout(flow.timer);
    this.flows.delete(flowId);
  }

  private async openStore(): Promise<SecretStore> {
    try {
      return await this.options.store();
    } catch (error) {
      throw new HostError(
        'sign-in-failed',
        `No secret store to keep the tokens in: ${error instanceof Error ? error.message : String(error)}. Run 'switchyard doctor'.`,
        { kind: 'sign-in-required' satisfies SignInFailureKind },
      );
    }
  }
}

function signInFailed(error: unknown, server: string): HostError {
  if (error instanceof HostError) return error;
  const { kind, message } = describeAuthError(error, server);
  return new HostError('sign-in-failed', message, { kind });
}

function toWire(status: AuthSignInStatus): SignInStatus {
  return {
    server: status.server,
    resource: status.resource,
    issuer: status.issuer ?? null,
    subject: status.subject ?? null,
    scopes: [...status.scopes],
    expiresAt: status.expiresAt ?? null,
    refreshable: status.refreshable,
  };
}

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
