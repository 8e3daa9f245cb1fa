import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth';
import { startEnterpriseIdp, type EnterpriseIdp } from '../fixtures/oauth/enterprise-idp';
import { HostHarness, unwrap } from './host-harness';

// Cross-app access (SEP-990, decision 0032) through the bundled host over native messaging: a
// company IdP on loopback exchanges the user's ID token (RFC 8693) for an ID-JAG, and the MCP
// server's authorization server (oidc-provider, with the RFC 7523 JWT bearer grant registered)
// exchanges that, with the client's secret, for a token for the MCP server; calls go through with
// no sign-in. Dangerous direction: the ID token sent to an IdP that did not issue it or after it
// expired, a grant asked for an authorization server other than the pinned one, or the ID token,
// the ID-JAG or a secret in a file, a log or a message.

const XAA_SECRET = 'xaa-secret-51c0e9a2d7';
const IDP_SECRET = 'idp-secret-0b7d3f18ea';

type Status = { state: string; reason?: string; message?: string } & Record<string, unknown>;

describe('OAuth cross-app access through the host', () => {
  let idp: EnterpriseIdp;
  let fixture: OAuthFixture;
  let host: HostHarness;
  let idToken: string;

  beforeAll(async () => {
    idp = await startEnterpriseIdp({
      clientId: 'switchyard',
      clientSecret: IDP_SECRET,
      jagClientId: 'xaa-client',
    });
    fixture = await startOAuthFixture({
      registration: false,
      clients: [
        {
          clientId: 'xaa-client',
          clientSecret: XAA_SECRET,
          redirectUris: [],
          grant: 'cross-app-access',
        },
      ],
      jwtBearer: { verify: (jag) => idp.verifyJag(jag) },
    });
    idToken = idp.idToken('alice');
    process.env['SWITCHYARD_SECRET_STORE'] = 'file';
    process.env['XAA_SECRET'] = XAA_SECRET;
    process.env['IDP_SECRET'] = IDP_SECRET;
    process.env['IDP_ID_TOKEN'] = idToken;
    process.env['EXPIRED_ID_TOKEN'] = idp.idToken('alice', { ttlSeconds: -3600 });
    process.env['FOREIGN_ID_TOKEN'] = idp.idToken('alice', {
      issuer: 'https://other-idp.example.com',
    });
    const entry = (oauth: Record<string, unknown>, idpOver: Record<string, unknown> = {}) => ({
      type: 'http' as const,
      url: fixture.mcpUrl,
      oauth: {
        grant: 'cross-app-access',
        clientId: 'xaa-client',
        clientSecret: '${XAA_SECRET}',
        idp: {
          issuer: idp.issuer,
          clientId: 'switchyard',
          clientSecret: '${IDP_SECRET}',
          idToken: '${IDP_ID_TOKEN}',
          ...idpOver,
        },
        ...oauth,
      },
    });
    host = await HostHarness.start({
      corp: entry({ issuer: fixture.issuer }),
      endpoint: entry({}, { tokenEndpoint: `${idp.issuer}/token` }),
      expired: entry({}, { idToken: '${EXPIRED_ID_TOKEN}' }),
      foreign: entry({}, { idToken: '${FOREIGN_ID_TOKEN}' }),
      elsewhere: entry({ issuer: 'https://auth.elsewhere.example.com' }),
    });
  }, 60_000);

  afterAll(async () => {
    await host.close();
    await fixture.stop();
    await idp.close();
    for (const name of [
      'SWITCHYARD_SECRET_STORE',
      'XAA_SECRET',
      'IDP_SECRET',
      'IDP_ID_TOKEN',
      'EXPIRED_ID_TOKEN',
      'FOREIGN_ID_TOKEN',
    ]) {
      Reflect.deleteProperty(process.env, name);
    }
  });

  const statusOf = async (name: string): Promise<Status | undefined> => {
    const { servers } = await host.call<{ servers: Array<{ name: string; status: Status }> }>(
      'servers/list',
    );
    return servers.find((s) => s.name === name)?.status;
  };

  it('exchanges the ID token at the IdP and the ID-JAG at the authorization server, with no sign-in', async () => {
    await host.settled();
    expect(await statusOf('corp')).toMatchObject({ state: 'running' });
    expect(await statusOf('endpoint')).toMatchObject({ state: 'running' });
    const result = await host.call<{ content: Array<{ text: string }> }>('tools/call', {
      name: 'corp__whoami',
      arguments: {},
    });
    expect(unwrap(result.content[0]?.text ?? '')).toMatch(/^client xaa-client with mcp:tools/);
    // The ID-JAG was asked for this authorization server and this MCP server, for alice.
    expect(idp.exchanges.length).toBeGreaterThanOrEqual(2);
    for (const exchange of idp.exchanges) {
      expect(exchange).toEqual({
        sub: 'alice',
        audience: fixture.issuer,
        resource: fixture.mcpUrl,
      });
    }
    expect(fixture.counters.as.jwtBearer).toBeGreaterThanOrEqual(2);
    expect(fixture.counters.as.jwtBearerRefused).toBe(0);
    expect(fixture.counters.as.interactions).toBe(0);
    expect(fixture.counters.as.registrations).toBe(0);
  });

  it('does not send an expired ID token, or one another IdP issued', async () => {
    const expired = await statusOf('expired');
    expect(expired?.state).toBe('failed');
    // No Sign in would help (there is none): the variable must be updated.
    expect(expired?.reason).not.toBe('auth-required');
    expect(expired?.message).toContain('${EXPIRED_ID_TOKEN} expired');
    const foreign = await statusOf('foreign');
    expect(foreign?.state).toBe('failed');
    expect(foreign?.message).toContain('https://other-idp.example.com');
    expect(foreign?.message).toContain('it was not sent');
    // Only the two servers that run reached the IdP, and it refused nothing.
    expect(idp.refused).toEqual([]);
  });

  it('asks the IdP for nothing when the server names an authorization server other than the pinned one', async () => {
    const status = await statusOf('elsewhere');
    expect(status?.state).toBe('failed');
    expect(status?.message).toContain('https://auth.elsewhere.example.com');
    expect(status?.message).toContain('were not sent');
    expect(idp.exchanges.every((e) => e.audience === fixture.issuer)).toBe(true);
  });

  it('says there is no sign-in to do', async () => {
    const reply = await host.request('auth/begin', {
      server: 'corp',
      redirectUri: 'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/',
    });
    expect(reply.error?.data?.reason).toBe('sign-in-failed');
    expect(reply.error?.message).toContain('cross-app access');
  });

  it('keeps the ID token, the grant and the secrets out of files and logs', () => {
    const files = ['config.json', 'trust.json', 'secrets.json'].map((f) => join(host.home, f));
    const texts = [
      ...files.filter((f) => existsSync(f)).map((f) => readFileSync(f, 'utf8')),
      host.stderr.join(''),
    ];
    for (const text of texts) {
      expect(text).not.toContain(idToken);
      expect(text).not.toContain(XAA_SECRET);
      expect(text).not.toContain(IDP_SECRET);
      expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.eyJ/);
      expect(text).not.toMatch(/access_token/);
    }
  });
});
