import { describe, expect, it, test } from 'vitest';
import { formatConsent } from '../cli/consent-text';
import type { LaunchDefinition } from '../shared/server-spec';
import { launchFingerprint } from '../trust/fingerprint';
import { consentRequest, type ConsentInput } from './launch-gate';

// Dangerous direction: a card that hides where data goes (the origin missing, a header value with
// an invisible character shown as if it were plain) or a repository's remote entry without the
// warning that its tokens leave the machine. An extra warning only costs a glance.

const URL_WRITTEN = 'https://mcp.example.com/mcp?tenant=acme';

function remoteDefinition(over: Partial<LaunchDefinition> = {}): LaunchDefinition {
  return {
    executable: URL_WRITTEN,
    args: [],
    env: {},
    cwd: null,
    provenance: 'user',
    workspaceRoot: null,
    remote: {
      transport: 'streamable-http',
      url: URL_WRITTEN,
      headers: { 'X-Tenant': 'acme', Authorization: 'Bearer ${TOKEN}' },
    },
    ...over,
  };
}

function input(definition: LaunchDefinition, over: Partial<ConsentInput> = {}): ConsentInput {
  return {
    server: 'remote',
    command: '',
    definition,
    sourceFile: null,
    ignoredTrustClaims: [],
    changes: null,
    ...over,
  };
}

describe('consentRequest for a remote server', () => {
  it('names the origin and shows the headers as written (user entry)', () => {
    const definition = remoteDefinition();
    const card = consentRequest(input(definition));
    expect(card.reason).toBe('edited-outside');
    expect(card.fingerprint).toBe(launchFingerprint(definition));
    expect(card.command).toBe(URL_WRITTEN);
    expect(card.remote).toEqual({
      url: URL_WRITTEN,
      origin: 'https://mcp.example.com',
      transport: 'streamable-http',
      // Sorted by name, values unexpanded: the card never shows the token itself.
      headers: [
        ['Authorization', 'Bearer ${TOKEN}'],
        ['X-Tenant', 'acme'],
      ],
    });
    expect(card.warnings).toEqual([
      'Connects to https://mcp.example.com: the arguments of every tool you allow are sent there.',
    ]);
  });

  it('warns that a repository sends tokens to the origin (workspace entry)', () => {
    const definition = remoteDefinition({
      provenance: 'workspace',
      workspaceRoot: '/home/ana/project',
    });
    const card = consentRequest(
      input(definition, {
        sourceFile: '/home/ana/project/.mcp.json',
        ignoredTrustClaims: ['alwaysAllow'],
      }),
    );
    expect(card.reason).toBe('workspace');
    expect(card.summary).toBe('new server from /home/ana/project - needs approval');
    expect(card.warnings).toEqual([
      'This repository asks Switchyard to connect to https://mcp.example.com: the arguments of every tool you allow, and any token in its headers, would be sent there. Approve only if you know the server.',
      'The file claims trust (alwaysAllow); Switchyard ignores such claims.',
    ]);
  });

  test.each<[string, string, string]>([
    ['localhost', 'http://localhost:3000/mcp', 'http://localhost:3000'],
    ['127.0.0.1', 'http://127.0.0.1:8080/mcp', 'http://127.0.0.1:8080'],
  ])('says why plain http to %s is allowed', (_label, url, origin) => {
    const definition = remoteDefinition({
      executable: url,
      remote: { transport: 'sse', url, headers: {} },
    });
    const card = consentRequest(input(definition));
    expect(card.remote?.origin).toBe(origin);
    expect(card.warnings).toContain(
      'Plain http: allowed only because the server is on this machine.',
    );
  });

  it('marks invisible and control characters in header values instead of hiding them', () => {
    const definition = remoteDefinition({
      remote: {
        transport: 'auto',
        url: URL_WRITTEN,
        headers: { 'X-Note': 'safe\u202egnp.exe', 'X-Tab': 'a\u200bb' },
      },
    });
    const headers = consentRequest(input(definition)).remote?.headers ?? [];
    expect(headers).toEqual([
      ['X-Note', 'safe⟦U+202E⟧gnp.exe'],
      ['X-Tab', 'a⟦U+200B⟧b'],
    ]);
  });

  test.each<
    [string, string | undefined, { clientId: string; clientSecret: string | null }, RegExp]
  >([
    [
      'a confidential client: the variable, never a value',
      '${GH_SECRET}',
      { clientId: 'Iv1.abc', clientSecret: '${GH_SECRET}' },
      /oauth: {7}client "Iv1\.abc", secret from \$\{GH_SECRET\}/,
    ],
    [
      'a public client',
      undefined,
      { clientId: 'Iv1.abc', clientSecret: null },
      /oauth: {7}client "Iv1\.abc", no secret/,
    ],
  ])('shows the pre-registered OAuth client: %s', (_label, secret, shown, line) => {
    const definition = remoteDefinition({
      remote: {
        transport: 'streamable-http',
        url: URL_WRITTEN,
        headers: {},
        oauth: {
          clientId: 'Iv1.abc',
          ...(secret === undefined ? {} : { clientSecret: secret }),
          scopes: ['repo'],
        },
      },
    });
    const card = consentRequest(input(definition));
    expect(card.remote?.oauthClient).toEqual(shown);
    expect(formatConsent(card)).toMatch(line);
  });

  it("warns that a repository's entry chose the variable its client secret is read from", () => {
    const definition = remoteDefinition({
      provenance: 'workspace',
      workspaceRoot: '/home/ana/project',
      remote: {
        transport: 'streamable-http',
        url: URL_WRITTEN,
        headers: {},
        oauth: { clientId: 'app', clientSecret: '${AWS_SECRET_ACCESS_KEY}', scopes: [] },
      },
    });
    expect(consentRequest(input(definition)).warnings).toContain(
      "Signs in with the value of ${AWS_SECRET_ACCESS_KEY} from this machine as its OAuth client secret: approve only if that variable holds this app's secret.",
    );
    // The user's own entry: they chose the variable themselves.
    const own = remoteDefinition({
      remote: { ...definition.remote, transport: 'auto', url: URL_WRITTEN, headers: {} },
    });
    expect(consentRequest(input(own)).warnings.join(' ')).not.toContain('client secret');
  });

  // Dangerous direction (decision 0032): a repository's entry sending the user's ID token to an
  // IdP, or asking a grant for an authorization server, that the card does not name.
  it('names the IdP that gets the ID token and the authorization server of a cross-app access client', () => {
    const definition = remoteDefinition({
      provenance: 'workspace',
      workspaceRoot: '/home/ana/project',
      remote: {
        transport: 'streamable-http',
        url: URL_WRITTEN,
        headers: {},
        oauth: {
          clientId: 'xaa',
          clientSecret: '${XAA_SECRET}',
          scopes: [],
          grant: 'cross-app-access',
          issuer: 'https://auth.example.com',
          idp: { issuer: 'https://acme.okta.com', clientId: 'sy', idToken: '${IDP_ID_TOKEN}' },
        },
      },
    });
    const card = consentRequest(input(definition));
    expect(card.remote?.oauthClient?.machineGrant).toBe(
      'cross-app-access: ID token ${IDP_ID_TOKEN} sent to IdP "https://acme.okta.com" (client "sy", no secret, token endpoint discovered) for a grant to issuer "https://auth.example.com", scopes []',
    );
    expect(card.warnings).toContain(
      'Sends your ID token from ${IDP_ID_TOKEN} to the identity provider "https://acme.okta.com" for a grant to reach this server as you: approve only if that is your company\'s IdP.',
    );
    expect(formatConsent(card)).toMatch(
      /grant: +cross-app-access: .*"https:\/\/acme\.okta\.com".*\(tokens with no sign-in\)/,
    );
  });

  it('has no oauthClient when the host registers one itself', () => {
    expect(consentRequest(input(remoteDefinition())).remote).not.toHaveProperty('oauthClient');
  });

  it('shows an internationalized host as punycode in the origin', () => {
    const url = 'https://пример.com/mcp';
    const card = consentRequest(
      input(remoteDefinition({ executable: url, remote: { transport: 'auto', url, headers: {} } })),
    );
    expect(card.remote?.origin).toBe('https://xn--e1afmkfd.com');
    expect(card.warnings[0]).toContain('https://xn--e1afmkfd.com');
  });

  it('names a changed header, not its value, in the summary', () => {
    const card = consentRequest(
      input(remoteDefinition(), {
        changes: [{ field: 'header', key: 'Authorization', before: 'Bearer a', after: 'Bearer b' }],
      }),
    );
    expect(card.reason).toBe('changed');
    expect(card.summary).toBe('header Authorization changed - needs approval');
    expect(card.changes).toEqual([
      { field: 'header', key: 'Authorization', before: 'Bearer a', after: 'Bearer b' },
    ]);
  });

  it('has no remote block for a local server', () => {
    const local: LaunchDefinition = {
      executable: '/usr/bin/node',
      args: ['server.js'],
      env: {},
      cwd: null,
      provenance: 'user',
      workspaceRoot: null,
    };
    expect(consentRequest(input(local, { command: 'node' })).remote).toBeNull();
  });

  it('shows the tool prefix a workspace file asks for, visibly, and none when it asks for none', () => {
    const local: LaunchDefinition = {
      executable: '/usr/bin/node',
      args: ['server.js'],
      env: {},
      cwd: null,
      provenance: 'workspace',
      workspaceRoot: '/home/ana/project',
    };
    expect(consentRequest(input(local, { command: 'node' })).toolPrefix).toBeNull();
    const card = consentRequest(
      input(
        { ...local, toolPrefix: 'git\u202ehub' },
        {
          command: 'node',
          changes: [{ field: 'toolPrefix', before: 'notes', after: 'git\u202ehub' }],
        },
      ),
    );
    expect(card.toolPrefix).toBe('git⟦U+202E⟧hub');
    expect(card.changes).toEqual([
      { field: 'toolPrefix', before: 'notes', after: 'git⟦U+202E⟧hub' },
    ]);
    expect(card.summary).toBe('tool prefix changed - needs approval');
    expect(formatConsent(card)).toContain(
      '  tool names:  "git⟦U+202E⟧hub"__… (what its tool names start with)',
    );
  });
});

describe('formatConsent for a remote server', () => {
  it('prints where it connects, the origin, the transport and the headers as written', () => {
    const text = formatConsent(consentRequest(input(remoteDefinition())));
    expect(text.split('\n').slice(0, 5)).toEqual([
      "Server 'remote' (your config.json): in config.json but not approved to run - needs approval",
      `  connects to: ${URL_WRITTEN}`,
      '  origin:      https://mcp.example.com   (your data and any token in the headers go there)',
      '  transport:   streamable-http',
      '  headers:     Authorization: "Bearer ${TOKEN}", X-Tenant: "acme"',
    ]);
    expect(text).not.toContain('program:');
    expect(text).toContain('  ! Connects to https://mcp.example.com');
  });

  it('prints (none) for no headers and keyed header changes', () => {
    const text = formatConsent(
      consentRequest(
        input(remoteDefinition({ remote: { transport: 'sse', url: URL_WRITTEN, headers: {} } }), {
          changes: [{ field: 'header', key: 'X-Tenant', before: 'acme', after: null }],
        }),
      ),
    );
    expect(text).toContain('  headers:     (none)');
    expect(text).toContain('  changed header X-Tenant: acme -> (unset)');
  });
});
