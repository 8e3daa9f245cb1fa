import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startOAuthFixture, TEST_USER, type OAuthFixture } from '../fixtures/oauth';
import { followToRedirect } from '../fixtures/oauth/test-browser';
import { HostHarness, unwrap } from './host-harness';

// Sign-in to an OAuth-protected remote server through the bundled host over native messaging
// (issue 11 item 3), against a real authorization server (oidc-provider) on loopback: the host
// fails the server as `auth-required` without tokens, runs the flow for auth/begin with the
// browser's redirect, checks and redeems the callback auth/complete brings, restarts the server
// with the token, and signs out. The "browser" follows the authorization page's redirects as
// launchWebAuthFlow would; the extension's side is the browser journey's.

const REDIRECT = 'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/';

type Status = { state: string; reason?: string; message?: string } & Record<string, unknown>;

describe('OAuth sign-in through the host', () => {
  let fixture: OAuthFixture;
  let host: HostHarness;

  beforeAll(async () => {
    fixture = await startOAuthFixture({ consent: 'auto' });
    // The 0600 file store under the test's home: no keyring on a CI machine.
    process.env['SWITCHYARD_SECRET_STORE'] = 'file';
    host = await HostHarness.start({
      linear: { type: 'http', url: fixture.mcpUrl },
      // An API key in the entry: static auth, so a refusal is a wrong key, not a sign-in.
      keyed: {
        type: 'http',
        url: fixture.mcpUrl,
        headers: { Authorization: 'Bearer not-a-token-the-server-knows' },
      },
    });
  }, 60_000);

  afterAll(async () => {
    await host.close();
    await fixture.stop();
    delete process.env['SWITCHYARD_SECRET_STORE'];
  });

  const status = async (): Promise<Status | undefined> => {
    const { servers } = await host.call<{ servers: Array<{ name: string; status: Status }> }>(
      'servers/list',
    );
    return servers.find((s) => s.name === 'linear')?.status;
  };

  /** Polls servers/list until the server's state satisfies `check`. */
  const waitFor = async (check: (state: Status | undefined) => boolean): Promise<Status> => {
    for (let tries = 0; tries < 400; tries += 1) {
      const state = await status();
      if (state !== undefined && check(state)) return state;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the server stayed ${JSON.stringify(await status())}`);
  };

  it('fails a server that needs sign-in as auth-required, with no client registered', async () => {
    await host.settled();
    const state = await status();
    expect(state).toMatchObject({ state: 'failed', reason: 'auth-required' });
    expect(state?.message).toContain('switchyard auth linear');
    // Nothing registered behind the user's back: the background provider never starts a flow.
    expect(fixture.counters.as.registrations).toBe(0);
    expect(await host.call('auth/status', { server: 'linear' })).toEqual({ status: null });
  });

  it('a server with its own Authorization header is not offered a sign-in: its key was refused', async () => {
    const { servers } = await host.call<{ servers: Array<{ name: string; status: Status }> }>(
      'servers/list',
    );
    const keyed = servers.find((s) => s.name === 'keyed')?.status;
    expect(keyed).toMatchObject({ state: 'failed', reason: 'handshake-failed' });
    expect(keyed?.message).toContain('401');
    expect(fixture.counters.as.registrations).toBe(0);
  });

  it('refuses a redirect that is not a browser web auth flow', async () => {
    const reply = await host.request('auth/begin', {
      server: 'linear',
      redirectUri: 'https://evil.example/callback',
    });
    expect(reply.error?.data?.reason).toBe('invalid-params');
  });

  it('a callback with another state is refused and stores nothing', async () => {
    const begun = await host.call<{ flowId: string; authorizationUrl: string }>('auth/begin', {
      server: 'linear',
      redirectUri: REDIRECT,
    });
    const { callbackUrl } = await followToRedirect(begun.authorizationUrl, REDIRECT);
    const forged = new URL(callbackUrl);
    forged.searchParams.set('state', 'forged');
    const reply = await host.request('auth/complete', {
      flowId: begun.flowId,
      callbackUrl: forged.href,
    });
    expect(reply.error?.data).toMatchObject({ reason: 'sign-in-failed', kind: 'state-mismatch' });
    expect(fixture.counters.as.issued).toBe(0);
    // The flow is over: completing it again with the real callback is refused too.
    const again = await host.request('auth/complete', { flowId: begun.flowId, callbackUrl });
    expect(again.error?.data).toMatchObject({ reason: 'sign-in-failed', kind: 'invalid-callback' });
  });

  it('a closed window ends the flow as cancelled', async () => {
    const begun = await host.call<{ flowId: string }>('auth/begin', {
      server: 'linear',
      redirectUri: REDIRECT,
    });
    const reply = await host.request('auth/complete', { flowId: begun.flowId, callbackUrl: null });
    expect(reply.error?.data).toMatchObject({ reason: 'sign-in-failed', kind: 'cancelled' });
  });

  it('signs in, restarts the server with the token, and relays calls as the user', async () => {
    const begun = await host.call<{ flowId: string; authorizationUrl: string }>('auth/begin', {
      server: 'linear',
      redirectUri: REDIRECT,
    });
    const page = new URL(begun.authorizationUrl);
    expect(page.origin).toBe(new URL(fixture.issuer).origin);
    expect(page.searchParams.get('code_challenge_method')).toBe('S256');
    expect(page.searchParams.get('resource')).toBe(fixture.mcpUrl);
    expect(page.searchParams.get('redirect_uri')).toBe(REDIRECT);
    const { callbackUrl } = await followToRedirect(begun.authorizationUrl, REDIRECT);
    const done = await host.call<{ status: Record<string, unknown> }>('auth/complete', {
      flowId: begun.flowId,
      callbackUrl,
    });
    expect(done.status).toMatchObject({ server: 'linear', resource: fixture.mcpUrl });
    expect(done.status['scopes']).toContain('mcp:tools');
    // No token crosses the port, in any field.
    expect(JSON.stringify(done)).not.toMatch(/access_token|refresh_token|eyJ/);

    await waitFor((state) => state?.state === 'running');
    const result = await host.call<{ content: Array<{ text: string }> }>('tools/call', {
      name: 'linear__whoami',
      arguments: {},
    });
    expect(unwrap(result.content[0]?.text ?? '')).toContain(`user ${TEST_USER}`);
    expect(await host.call('auth/status', { server: 'linear' })).toEqual({ status: done.status });
  }, 60_000);

  it('a tool that needs a wider scope asks for sign-in, and the next sign-in asks for it', async () => {
    const refused = await host.request('tools/call', {
      name: 'linear__admin_reset',
      arguments: {},
    });
    expect(refused.error?.data?.reason).toBe('server-unavailable');
    expect(refused.error?.message).toContain('sign in');
    // The server keeps running for the tools the granted scope covers.
    const whoami = await host.request('tools/call', { name: 'linear__whoami', arguments: {} });
    expect(whoami.error).toBeUndefined();

    const begun = await host.call<{ flowId: string; authorizationUrl: string }>('auth/begin', {
      server: 'linear',
      redirectUri: REDIRECT,
    });
    const scope = new URL(begun.authorizationUrl).searchParams.get('scope') ?? '';
    expect(scope.split(' ')).toEqual(expect.arrayContaining(['mcp:tools', 'mcp:admin']));
    const { callbackUrl } = await followToRedirect(begun.authorizationUrl, REDIRECT);
    const done = await host.call<{ status: { scopes: string[] } }>('auth/complete', {
      flowId: begun.flowId,
      callbackUrl,
    });
    expect(done.status.scopes).toContain('mcp:admin');
    await waitFor((state) => state?.state === 'running');
    const result = await host.call<{ content: Array<{ text: string }> }>('tools/call', {
      name: 'linear__admin_reset',
      arguments: {},
    });
    expect(unwrap(result.content[0]?.text ?? '')).toContain('reset done');
  }, 60_000);

  it('keeps the tokens out of config.json, trust.json and the host logs', () => {
    for (const file of ['config.json', 'trust.json']) {
      const text = readFileSync(join(host.home, file), 'utf8');
      expect(text).not.toMatch(/access_token|refresh_token/);
    }
    expect(host.stderr.join('')).not.toMatch(/eyJ[\w-]{10,}\.|access_token/);
  });

  it('signs out: deletes the tokens, and the server needs sign-in again', async () => {
    const out = await host.call<{ revocation: string; deleted: number }>('auth/signOut', {
      server: 'linear',
    });
    expect(out.deleted).toBeGreaterThan(0);
    expect(['revoked', 'unsupported']).toContain(out.revocation);
    expect(await host.call('auth/status', { server: 'linear' })).toEqual({ status: null });
    await waitFor((state) => state?.reason === 'auth-required');
  }, 60_000);

  it('a sign-in revoked behind its back fails the server as auth-required, offering Sign in', async () => {
    const begun = await host.call<{ flowId: string; authorizationUrl: string }>('auth/begin', {
      server: 'linear',
      redirectUri: REDIRECT,
    });
    const { callbackUrl } = await followToRedirect(begun.authorizationUrl, REDIRECT);
    await host.call('auth/complete', { flowId: begun.flowId, callbackUrl });
    await waitFor((state) => state?.state === 'running');

    // The user revokes Switchyard's access at the provider (or an admin does): both tokens go.
    const stored = z
      .object({ secrets: z.record(z.string(), z.string()) })
      .parse(JSON.parse(readFileSync(join(host.home, 'secrets.json'), 'utf8'))).secrets;
    const record = (key: string): unknown => JSON.parse(stored[`oauth:linear:${key}`] ?? 'null');
    const { tokens } = z
      .object({ tokens: z.object({ access_token: z.string(), refresh_token: z.string() }) })
      .parse(record('tokens'));
    const clientId = z.object({ info: z.object({ client_id: z.string() }) }).parse(record('client'))
      .info.client_id;
    const metadata = z
      .object({ revocation_endpoint: z.string() })
      .parse(
        await (await fetch(`${fixture.issuer}/.well-known/oauth-authorization-server`)).json(),
      );
    for (const token of [tokens.refresh_token, tokens.access_token]) {
      const revoked = await fetch(metadata.revocation_endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, client_id: clientId }),
      });
      expect(revoked.ok).toBe(true);
    }

    const call = await host.request('tools/call', { name: 'linear__whoami', arguments: {} });
    expect(JSON.stringify(call)).toMatch(/needs sign-in/);
    // Not "running" with every call failing: the popup offers Sign in for auth-required.
    const failed = await waitFor((state) => state?.reason === 'auth-required');
    expect(failed.state).toBe('failed');
  }, 60_000);

  it('forgets the sign-in of a server that is removed, revoking its tokens first', async () => {
    const begun = await host.call<{ flowId: string; authorizationUrl: string }>('auth/begin', {
      server: 'linear',
      redirectUri: REDIRECT,
    });
    const { callbackUrl } = await followToRedirect(begun.authorizationUrl, REDIRECT);
    await host.call('auth/complete', { flowId: begun.flowId, callbackUrl });
    const secrets = join(host.home, 'secrets.json');
    expect(readFileSync(secrets, 'utf8')).toContain('oauth:linear:tokens');

    await host.call('servers/remove', { server: 'linear' });
    // After the answer: a revocation endpoint that does not answer must not hold the popup.
    for (let tries = 0; readFileSync(secrets, 'utf8').includes('oauth:linear:'); tries += 1) {
      if (tries > 200) throw new Error('the sign-in of the removed server is still stored');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(host.stderr.join('')).toMatch(
      /'linear' was removed: its sign-in was forgotten \(revoked\)/,
    );
  }, 60_000);
});
