import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthFixture, type OAuthFixture } from '../fixtures/oauth';
import { HostHarness, unwrap } from './host-harness';

// Machine-to-machine clients (SEP-1046, decision 0024) through the bundled host over native
// messaging, against a real authorization server (oidc-provider) on loopback that knows them
// beforehand and offers no registration: a client with a secret (client_secret_basic) and one
// with a private key (private_key_jwt, RFC 7523) each get a token for the MCP server with no
// person signing in, and calls go through. Dangerous direction: the secret or the key sent to an
// authorization server other than the one the entry pins, a secret or token in a log, a file or a
// message, or a refused client retried in a loop.

const SECRET = 'svc-secret-7d2e41b9c0';
const WRONG_SECRET = 'not-the-secret-3a9f';
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
// SEC 1 ("BEGIN EC PRIVATE KEY"), as `openssl ecparam -genkey` writes it: the host converts it.
const KEY_PEM = privateKey.export({ type: 'sec1', format: 'pem' }).toString();

type Status = { state: string; reason?: string; message?: string } & Record<string, unknown>;

describe('OAuth client credentials through the host', () => {
  let fixture: OAuthFixture;
  let host: HostHarness;

  beforeAll(async () => {
    fixture = await startOAuthFixture({
      registration: false,
      clients: [
        {
          clientId: 'svc-basic',
          clientSecret: SECRET,
          redirectUris: [],
          grant: 'client_credentials',
        },
        {
          clientId: 'svc-jwt',
          redirectUris: [],
          grant: 'client_credentials',
          jwks: { keys: [{ ...publicKey.export({ format: 'jwk' }), alg: 'ES256', use: 'sig' }] },
        },
      ],
    });
    process.env['SWITCHYARD_SECRET_STORE'] = 'file';
    process.env['SVC_SECRET'] = SECRET;
    process.env['SVC_WRONG'] = WRONG_SECRET;
    process.env['SVC_KEY'] = KEY_PEM;
    const machine = (oauth: Record<string, unknown>) => ({
      type: 'http' as const,
      url: fixture.mcpUrl,
      oauth: { grant: 'client_credentials', ...oauth },
    });
    host = await HostHarness.start({
      basic: machine({ clientId: 'svc-basic', clientSecret: '${SVC_SECRET}' }),
      jwt: machine({ clientId: 'svc-jwt', privateKey: '${SVC_KEY}', issuer: fixture.issuer }),
      wrong: machine({ clientId: 'svc-basic', clientSecret: '${SVC_WRONG}' }),
      elsewhere: machine({
        clientId: 'svc-basic',
        clientSecret: '${SVC_SECRET}',
        issuer: 'https://idp.example.com',
      }),
    });
  }, 60_000);

  afterAll(async () => {
    await host.close();
    await fixture.stop();
    delete process.env['SWITCHYARD_SECRET_STORE'];
    delete process.env['SVC_SECRET'];
    delete process.env['SVC_WRONG'];
    delete process.env['SVC_KEY'];
  });

  const statusOf = async (name: string): Promise<Status | undefined> => {
    const { servers } = await host.call<{ servers: Array<{ name: string; status: Status }> }>(
      'servers/list',
    );
    return servers.find((s) => s.name === name)?.status;
  };

  const whoami = async (name: string): Promise<string> => {
    const result = await host.call<{ content: Array<{ text: string }> }>('tools/call', {
      name: `${name}__whoami`,
      arguments: {},
    });
    return unwrap(result.content[0]?.text ?? '');
  };

  it('a client with a secret gets a token by itself and calls as that client', async () => {
    await host.settled();
    expect(await statusOf('basic')).toMatchObject({ state: 'running' });
    expect(await whoami('basic')).toMatch(/^client svc-basic with .*mcp:tools/);
    // No one signed in: no authorization page was reached and nothing was registered.
    expect(fixture.counters.as.interactions).toBe(0);
    expect(fixture.counters.as.registrations).toBe(0);
    expect(fixture.counters.as.clientCredentials).toBeGreaterThanOrEqual(2);
  });

  it('a client with a private key signs its assertion (a SEC 1 key converted)', async () => {
    expect(await statusOf('jwt')).toMatchObject({ state: 'running' });
    expect(await whoami('jwt')).toMatch(/^client svc-jwt with /);
  });

  it('a refused secret fails the server by the client id and the variable, never the value', async () => {
    const status = await statusOf('wrong');
    expect(status?.state).toBe('failed');
    expect(status?.message).toContain('svc-basic');
    expect(status?.message).toContain('oauth.clientSecret');
    expect(JSON.stringify(status)).not.toContain(WRONG_SECRET);
  });

  it('sends nothing to an authorization server other than the pinned issuer', async () => {
    const status = await statusOf('elsewhere');
    expect(status?.state).toBe('failed');
    expect(status?.message).toContain('https://idp.example.com');
    expect(status?.message).toContain('were not sent');
  });

  it('offers no sign-in: there is no page for a machine client', async () => {
    const reply = await host.request('auth/begin', {
      server: 'basic',
      redirectUri: 'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/',
    });
    expect(reply.error?.data?.reason).toBe('sign-in-failed');
    expect(reply.error?.message).toContain('client credentials');
  });

  it('pins the first issuer, and keeps tokens, secrets and keys out of files and logs', () => {
    const files = ['config.json', 'trust.json', 'secrets.json'].map((f) => join(host.home, f));
    const stored = existsSync(files[2] ?? '') ? readFileSync(files[2] ?? '', 'utf8') : '';
    expect(stored).toContain('oauth:basic:issuer');
    expect(stored).toContain(JSON.stringify(fixture.issuer).slice(1, -1));
    const texts = [
      ...files.filter((f) => existsSync(f)).map((f) => readFileSync(f, 'utf8')),
      host.stderr.join(''),
    ];
    for (const text of texts) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(WRONG_SECRET);
      expect(text).not.toContain('PRIVATE KEY');
      expect(text).not.toMatch(/access_token/);
    }
  });
});
