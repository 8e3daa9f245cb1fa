import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { AuthFlowError } from './auth-errors';
import { MachineClientProvider, readPrivateKey, type IssuerPin } from './machine-client';

// Dangerous direction: a machine client's secret sent to an authorization server other than the
// one pinned (the entry's `issuer`, or the first one used), a pin moved without the user, or a
// key read as another algorithm than it signs with. The grant itself is the SDK's, exercised
// against oidc-provider in test/integration/oauth-machine-client.test.ts.

const pem = (
  key: ReturnType<typeof generateKeyPairSync>['privateKey'],
  type: 'pkcs8' | 'sec1' | 'pkcs1',
) => key.export({ type, format: 'pem' }).toString();

describe('readPrivateKey', () => {
  const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey;
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  test.each<[string, string, 'ES256' | 'ES384' | 'RS256' | 'PS384' | undefined, string]>([
    ['a P-256 key in PKCS #8', pem(p256, 'pkcs8'), undefined, 'ES256'],
    ['a P-256 key in SEC 1 (openssl ecparam)', pem(p256, 'sec1'), undefined, 'ES256'],
    ['a P-384 key', pem(p384, 'pkcs8'), undefined, 'ES384'],
    ['an RSA key in PKCS #1', pem(rsa, 'pkcs1'), undefined, 'RS256'],
    ['an RSA key with the algorithm named', pem(rsa, 'pkcs8'), 'PS384', 'PS384'],
  ])('%s signs with its algorithm, as PKCS #8', (_label, key, configured, algorithm) => {
    const read = readPrivateKey('svc', key, configured);
    expect(read.algorithm).toBe(algorithm);
    expect(read.pem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });

  test('a value that is no key is refused by the server name, not echoed', () => {
    expect(() => readPrivateKey('svc', 'hunter2-not-a-key', undefined)).toThrow(
      /'svc': the oauth.privateKey variable does not hold a PEM private key/,
    );
    try {
      readPrivateKey('svc', 'hunter2-not-a-key', undefined);
    } catch (error) {
      expect(String(error)).not.toContain('hunter2');
    }
  });

  test('a key with no default algorithm asks for oauth.algorithm', () => {
    const ed = pem(generateKeyPairSync('ed25519').privateKey, 'pkcs8');
    expect(() => readPrivateKey('svc', ed, undefined)).toThrow(/set oauth.algorithm/);
  });
});

/** A pin kept in memory, with what was written. */
function memoryPin(initial?: string): IssuerPin & { written: string[] } {
  let value = initial;
  const written: string[] = [];
  return {
    written,
    read: () => Promise.resolve(value),
    write: (issuer) => {
      value = issuer;
      written.push(issuer);
      return Promise.resolve();
    },
  };
}

const client = {
  clientId: 'svc',
  clientSecret: 's3cret',
  scopes: ['tools'],
  grant: 'client_credentials' as const,
};

describe('MachineClientProvider', () => {
  test('first use: the issuer the server names is stamped, and pinned once a token came', async () => {
    const pin = memoryPin();
    const provider = await MachineClientProvider.create({ server: 'svc', client, pin });
    const info = provider.clientInformation({ issuer: 'https://idp.example.com' });
    expect(info).toMatchObject({
      client_id: 'svc',
      client_secret: 's3cret',
      issuer: 'https://idp.example.com',
    });
    expect(pin.written).toEqual([]);
    await provider.saveTokens({
      access_token: 't',
      token_type: 'Bearer',
      issuer: 'https://idp.example.com',
    });
    expect(pin.written).toEqual(['https://idp.example.com']);
    expect(provider.tokens()).toMatchObject({ access_token: 't' });
    expect(provider.redirectUrl).toBeUndefined();
    expect((await provider.prepareTokenRequest('tools')).get('grant_type')).toBe(
      'client_credentials',
    );
  });

  test.each<[string, string | undefined, string | undefined, string]>([
    ['the pinned issuer', 'https://idp.example.com', undefined, 'the one it named when first used'],
    ["the entry's issuer", undefined, 'https://idp.example.com', 'oauth.issuer in config.json'],
  ])(
    'another issuer than %s is refused before anything is sent',
    async (_label, pinned, configured, where) => {
      const provider = await MachineClientProvider.create({
        server: 'svc',
        client: { ...client, ...(configured === undefined ? {} : { issuer: configured }) },
        pin: memoryPin(pinned),
      });
      let thrown: unknown;
      try {
        provider.clientInformation({ issuer: 'https://evil.example' });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(AuthFlowError);
      expect((thrown as AuthFlowError).kind).toBe('issuer-mismatch');
      expect((thrown as AuthFlowError).message).toContain(where);
      expect((thrown as AuthFlowError).message).not.toContain('s3cret');
      // The same issuer but for a trailing slash is the same server (RFC 8414 as the SDK reads it).
      expect(provider.clientInformation({ issuer: 'https://idp.example.com/' })).toMatchObject({
        client_id: 'svc',
      });
    },
  );

  test('an entry naming its issuer never writes a pin', async () => {
    const pin = memoryPin();
    const provider = await MachineClientProvider.create({
      server: 'svc',
      client: { ...client, issuer: 'https://idp.example.com' },
      pin,
    });
    provider.clientInformation({ issuer: 'https://idp.example.com' });
    await provider.saveTokens({
      access_token: 't',
      token_type: 'Bearer',
      issuer: 'https://idp.example.com',
    });
    expect(pin.written).toEqual([]);
  });

  test('a refused client fails once, by its id and the variable to check', async () => {
    const provider = await MachineClientProvider.create({ server: 'svc', client });
    await provider.saveTokens({ access_token: 't', token_type: 'Bearer' });
    expect(() => {
      provider.invalidateCredentials('client');
    }).toThrow(
      /refused the client credentials of "svc": check oauth.clientId .* oauth.clientSecret/,
    );
    expect(provider.tokens()).toBeUndefined();
  });
});
