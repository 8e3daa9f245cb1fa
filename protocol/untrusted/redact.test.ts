import { describe, expect, test } from 'vitest';
import { redactSecrets, type SecretKind } from './redact';

// Letting a secret through is the dangerous direction: it lands in a model provider's logs and the
// transcript. A false positive only costs readability, but keep ordinary prose and hashes intact.

// Tokens are assembled at run time from deterministic filler so that this file holds no string a
// secret scanner (or GitHub push protection) would flag; none of them is a real credential.
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const HEX = '0123456789abcdef';

function filler(length: number, alphabet = BASE62, seed = 7): string {
  let state = seed;
  let out = '';
  for (let i = 0; i < length; i += 1) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    // The high bits of a power-of-two LCG are the random-looking ones.
    out += alphabet.charAt((state >>> 15) % alphabet.length);
  }
  return out;
}

function b64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

const join = (...parts: string[]): string => parts.join('');

const JWT = join(
  b64url({ alg: 'HS256', typ: 'JWT' }),
  '.',
  b64url({ sub: '1234567890', name: 'Jane', iat: 1516239022 }),
  '.',
  filler(43, `${BASE62}-_`),
);
const JWE_DIR = join(
  b64url({ alg: 'dir', enc: 'A256GCM' }),
  '..',
  filler(16),
  '.',
  filler(40),
  '.',
  filler(22),
);
const AWS_SECRET = filler(40, `${BASE62}/+`, 11);

function pem(label: string, end = true): string {
  const body = [filler(64, `${BASE62}+/`), filler(64, `${BASE62}+/`, 3), `${filler(20)}==`].join(
    '\n',
  );
  return join(`-----BEGIN ${label}-----\n`, body, end ? `\n-----END ${label}-----` : '');
}

describe('redactSecrets: each kind is detected', () => {
  test.each<[string, string, SecretKind]>([
    ['GitHub classic PAT', join('gh', 'p_', filler(36)), 'github'],
    ['GitHub OAuth', join('gh', 'o_', filler(36)), 'github'],
    ['GitHub user-to-server', join('gh', 'u_', filler(36)), 'github'],
    ['GitHub server-to-server', join('gh', 's_', filler(36)), 'github'],
    ['GitHub refresh', join('gh', 'r_', filler(36)), 'github'],
    ['GitHub fine-grained PAT', join('github', '_pat_', filler(22), '_', filler(59)), 'github'],
    ['AWS access key id', join('AK', 'IA', filler(16, UPPER_DIGITS)), 'aws-access-key-id'],
    ['AWS temporary key id', join('AS', 'IA', filler(16, UPPER_DIGITS)), 'aws-access-key-id'],
    ['Slack bot', join('xo', 'xb-', '123456789012-1234567890123-', filler(24)), 'slack'],
    ['Slack user', join('xo', 'xp-', '123456789012-123456789012-', filler(32, HEX)), 'slack'],
    ['Slack legacy xoxa', join('xo', 'xa-', '2-', filler(24)), 'slack'],
    ['Slack refresh xoxr', join('xo', 'xr-', filler(30)), 'slack'],
    ['Slack xoxs', join('xo', 'xs-', '1234567890-', filler(20)), 'slack'],
    ['Slack app token', join('xa', 'pp-1-A0', filler(30)), 'slack'],
    ['OpenAI legacy', join('s', 'k-', filler(48)), 'openai'],
    ['OpenAI project', join('s', 'k-proj-', filler(40), '_', filler(20, `${BASE62}-_`)), 'openai'],
    ['OpenAI-compatible hex key', join('s', 'k-', filler(32, HEX)), 'openai'],
    ['Anthropic', join('s', 'k-ant-api03-', filler(93, `${BASE62}-_`), 'AA'), 'anthropic'],
    ['Google API key', join('AI', 'za', filler(35, `${BASE62}-_`)), 'google-api-key'],
    ['Stripe live secret', join('sk', '_live_', filler(24)), 'stripe'],
    ['Stripe live restricted', join('rk', '_live_', filler(24)), 'stripe'],
    ['Stripe test secret', join('sk', '_test_', filler(24)), 'stripe'],
    ['Stripe webhook secret', join('wh', 'sec_', filler(32)), 'stripe'],
    ['GitLab PAT', join('gl', 'pat-', filler(20, `${BASE62}-_`)), 'gitlab'],
    ['GitLab deploy token', join('gl', 'dt-', filler(20)), 'gitlab'],
    ['npm', join('np', 'm_', filler(36)), 'npm'],
    ['JWT', JWT, 'jwt'],
    ['JWE, direct encryption (empty key segment)', JWE_DIR, 'jwt'],
    ['RSA private key', pem('RSA PRIVATE KEY'), 'private-key'],
    ['PKCS#8 private key', pem('PRIVATE KEY'), 'private-key'],
    ['encrypted private key', pem('ENCRYPTED PRIVATE KEY'), 'private-key'],
    ['EC private key', pem('EC PRIVATE KEY'), 'private-key'],
    ['OpenSSH private key', pem('OPENSSH PRIVATE KEY'), 'private-key'],
    ['PGP private key block', pem('PGP PRIVATE KEY BLOCK'), 'private-key'],
  ])('%s', (_name, secret, kind) => {
    const marker = `[REDACTED:${kind}]`;
    for (const [input, expected] of [
      [secret, marker],
      [`token=${secret} next`, `token=${marker} next`],
      [`"${secret}"`, `"${marker}"`],
      [`(${secret}).`, `(${marker}).`],
    ] as const) {
      expect(redactSecrets(input)).toEqual({ text: expected, redactions: 1 });
    }
  });

  test.each([
    [
      'Authorization: Bearer',
      `Authorization: Bearer ${filler(32)}`,
      'Authorization: Bearer [REDACTED:authorization]',
    ],
    [
      'Authorization: Basic',
      'authorization: Basic dXNlcjpwYXNzd29yZA==',
      'authorization: Basic [REDACTED:authorization]',
    ],
    [
      'JSON header map',
      `{"Authorization":"Bearer ${filler(24)}","Accept":"*/*"}`,
      '{"Authorization":"Bearer [REDACTED:authorization]","Accept":"*/*"}',
    ],
    [
      'Proxy-Authorization',
      `Proxy-Authorization: Basic ${filler(20)}`,
      'Proxy-Authorization: Basic [REDACTED:authorization]',
    ],
    [
      'curl -H with a GitHub token',
      `curl -H 'Authorization: token ${join('gh', 'p_', filler(36))}' https://api.github.com`,
      "curl -H 'Authorization: token [REDACTED:authorization]' https://api.github.com",
    ],
    [
      'JWT inside a Bearer header counts once',
      `Authorization: Bearer ${JWT}`,
      'Authorization: Bearer [REDACTED:authorization]',
    ],
    ['raw API key header', `x-api-key: ${filler(32, HEX)}`, 'x-api-key: [REDACTED:authorization]'],
    [
      'GitLab Private-Token header',
      `PRIVATE-TOKEN: ${filler(20)}`,
      'PRIVATE-TOKEN: [REDACTED:authorization]',
    ],
    [
      'bare bearer token',
      `sent Bearer ${filler(40)} to the API`,
      'sent Bearer [REDACTED:authorization] to the API',
    ],
    [
      'aws_secret_access_key =',
      `aws_secret_access_key = ${AWS_SECRET}`,
      'aws_secret_access_key = [REDACTED:aws-secret-access-key]',
    ],
    [
      'AWS_SECRET_ACCESS_KEY=',
      `AWS_SECRET_ACCESS_KEY=${AWS_SECRET}`,
      'AWS_SECRET_ACCESS_KEY=[REDACTED:aws-secret-access-key]',
    ],
    [
      'prefixed env var',
      `MY_AWS_SECRET_ACCESS_KEY='${AWS_SECRET}'`,
      "MY_AWS_SECRET_ACCESS_KEY='[REDACTED:aws-secret-access-key]'",
    ],
    [
      'STS JSON',
      `"SecretAccessKey": "${AWS_SECRET}"`,
      '"SecretAccessKey": "[REDACTED:aws-secret-access-key]"',
    ],
    [
      'YAML',
      `secret_access_key: ${AWS_SECRET}`,
      'secret_access_key: [REDACTED:aws-secret-access-key]',
    ],
    [
      'Slack webhook URL (host kept)',
      join('https://hooks.slack.com/services/', 'T0000', '0000/B0000', '0000/', filler(24)),
      'https://hooks.slack.com/[REDACTED:slack-webhook]',
    ],
    [
      'database URL password',
      'postgres://app:hunter2@db.internal:5432/prod',
      'postgres://app:[REDACTED:url-password]@db.internal:5432/prod',
    ],
    [
      'git remote with password',
      'https://alice:s3cr3t!@git.example.com/r.git',
      'https://alice:[REDACTED:url-password]@git.example.com/r.git',
    ],
    ['empty user', 'redis://:p4ss@cache:6379', 'redis://:[REDACTED:url-password]@cache:6379'],
    [
      'scheme with + and .',
      'mongodb+srv://u:p%40ss@cluster0.example.net',
      'mongodb+srv://u:[REDACTED:url-password]@cluster0.example.net',
    ],
    [
      'token as URL password counts once',
      `https://x-access-token:${join('gh', 's_', filler(36))}@github.com/o/r`,
      'https://x-access-token:[REDACTED:github]@github.com/o/r',
    ],
  ])('%s', (_name, input, expected) => {
    expect(redactSecrets(input)).toEqual({ text: expected, redactions: 1 });
  });

  test('a private key cut off before END is redacted to the end (it still leaks most of the key)', () => {
    expect(redactSecrets(`key:\n${pem('PRIVATE KEY', false)}\nmore`)).toEqual({
      text: 'key:\n[REDACTED:private-key]',
      redactions: 1,
    });
  });

  test.each([
    [
      'bearer token',
      `Authorization: Bearer ${filler(10_000)}`,
      'Authorization: Bearer [REDACTED:authorization]',
    ],
    ['URL password', `https://u:${filler(2_000)}@h`, 'https://u:[REDACTED:url-password]@h'],
    ['OpenAI key', join('s', 'k-', filler(5_000)), '[REDACTED:openai]'],
  ])('a very long %s is redacted whole', (_name, input, expected) => {
    expect(redactSecrets(input)).toEqual({ text: expected, redactions: 1 });
  });

  test('counts every secret in a text', () => {
    const text = [
      `GITHUB_TOKEN=${join('gh', 'p_', filler(36))}`,
      `AWS_ACCESS_KEY_ID=${join('AK', 'IA', filler(16, UPPER_DIGITS))}`,
      `AWS_SECRET_ACCESS_KEY=${AWS_SECRET}`,
      `NPM_TOKEN=${join('np', 'm_', filler(36, BASE62, 5))}`,
      'PATH=/usr/bin',
    ].join('\n');
    expect(redactSecrets(text)).toEqual({
      text: [
        'GITHUB_TOKEN=[REDACTED:github]',
        'AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key-id]',
        'AWS_SECRET_ACCESS_KEY=[REDACTED:aws-secret-access-key]',
        'NPM_TOKEN=[REDACTED:npm]',
        'PATH=/usr/bin',
      ].join('\n'),
      redactions: 4,
    });
  });

  test('redaction is idempotent', () => {
    const once = redactSecrets(`Authorization: Bearer ${JWT} ${pem('PRIVATE KEY')}`).text;
    expect(redactSecrets(once)).toEqual({ text: once, redactions: 0 });
  });
});

describe('redactSecrets: near misses and ordinary text stay', () => {
  test.each([
    ['git SHA-1', 'commit 3f786850e387550fdab836ed7e6dc881de23001b'],
    ['SHA-256', 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['UUID', 'id 123e4567-e89b-12d3-a456-426614174000'],
    ['base64 in prose', 'the blob SGVsbG8gd29ybGQhIFRoaXMgaXMgYmFzZTY0Lg== decodes to a greeting'],
    ['prose', 'The secret to a good key is patience; ask the token bearer.'],
    ['GitHub prefix, too short', join('gh', 'p_', filler(35))],
    ['GitHub prefix inside a word', join('xgh', 'p_', filler(36))],
    ['unknown GitHub-like prefix', join('gh', 'x_', filler(36))],
    ['AWS id one character short', join('AK', 'IA', filler(15, UPPER_DIGITS))],
    ['AWS id in lower case', join('ak', 'ia', filler(16, UPPER_DIGITS).toLowerCase())],
    ['sk-learn', 'pip install scikit-learn; import sklearn; sk-learn'],
    ['hyphenated slug after sk-', 'branch sk-release-notes-for-2024-final'],
    ['sk- inside a word', 'risk-assessment-framework-2024-edition-final'],
    ['xoxo', 'xoxo-gossip-girl-forever-and-ever'],
    ['Slack prefix with no digits', 'xoxb-not-a-token-just-words'],
    ['Google prefix, too short', join('AI', 'za', filler(34))],
    ['Stripe publishable key', join('pk', '_live_', filler(24))],
    ['npm config variable', 'npm_config_registry=https://registry.npmjs.org/'],
    ['npm prefix, too short', join('np', 'm_', filler(35))],
    ['JWT-looking header alone', 'eyJhbGciOiJIUzI1NiJ9'],
    ['two segments', `${b64url({ alg: 'none' })}.${b64url({ sub: 1 })}`],
    ['unsigned JWT (not a credential)', `${b64url({ alg: 'none' })}.${b64url({ sub: 1 })}.`],
    ['Authorization in prose', 'Authorization: required for all endpoints.'],
    ['short header value', 'Authorization: none'],
    ['Bearer in prose', 'Bearer of bad news'],
    ['URL with port and @ in the path', 'http://example.com:8080/users/@alice'],
    ['ssh URL', 'ssh://git@github.com:22/o/r.git'],
    ['user without password', 'https://user@example.com/'],
    ['email address', 'mail alice@example.com'],
    [
      'public key block',
      '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQ==\n-----END PUBLIC KEY-----',
    ],
    ['certificate', '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----'],
    ['secret key name with a placeholder', 'aws_secret_access_key = <your secret here>'],
    ['redaction markers', '[REDACTED:github] [REDACTED:url-password]'],
  ])('%s', (_name, input) => {
    expect(redactSecrets(input)).toEqual({ text: input, redactions: 0 });
  });
});

describe('redactSecrets: linear on adversarial input', () => {
  // Each unit is a pattern's prefix (or a near match) repeated to 1 MB: a backtracking or quadratic
  // pattern would not return in the test timeout.
  test.each([
    ['eyJ', 'eyJ'],
    ['eyJ segments', 'eyJaaaa.'],
    ['sk-', 'sk-'],
    ['sk-ant-', 'sk-ant-'],
    ['ghp_', join('gh', 'p_')],
    ['github_pat_', join('github', '_pat_')],
    ['glpat- with dots', join('gl', 'pat-a.')],
    ['xoxb-', join('xo', 'xb-')],
    ['AIza', 'AIza'],
    ['AKIA', 'AKIA'],
    ['npm_', 'npm_'],
    ['sk_live_', join('sk', '_live_')],
    ['Slack webhook prefix', 'https://hooks.slack.com/services/'],
    ['BEGIN without END', '-----BEGIN PRIVATE KEY-----'],
    ['dashes', '-'],
    ['BEGIN label filler', '-----BEGIN AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['Authorization header names', 'Authorization: '],
    ['Authorization + scheme', 'Authorization: Bearer '],
    ['Bearer', 'Bearer '],
    ['secret_access_key=', 'secret_access_key='],
    ['scheme://', 'a://'],
    ['user:pass without @', 'a://b:cccccccccccccccccccccccc'],
    ['scheme-like runs inside a password', `a://b:${'c:'.repeat(100)}!`],
    ['long user part without colon', `a://${'b!'.repeat(1000)} `],
    ['letters', 'a'],
    ['base64url run', `${filler(1000, `${BASE62}-_`)}.`],
  ])('1 MB of %s returns', (_name, unit) => {
    const input = unit.repeat(Math.ceil(1_000_000 / unit.length));
    const result = redactSecrets(input);
    expect(typeof result.text).toBe('string');
    expect(result.redactions).toBeGreaterThanOrEqual(0);
  });
});
