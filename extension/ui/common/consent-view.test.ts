import { describe, expect, test } from 'vitest';
import {
  commandLine,
  consentKey,
  consentReasonText,
  fingerprintPrefix,
  launchChangeView,
  provenanceText,
  shellQuote,
} from './consent-view';

describe('shellQuote (the dangerous direction: two arguments reading as one, or one as two)', () => {
  test.each([
    ['plain', '--port=8080', '--port=8080'],
    ['path', '/usr/bin/node', '/usr/bin/node'],
    ['space', 'a b', "'a b'"],
    ['empty', '', "''"],
    ['single quote', "it's", "'it'\\''s'"],
    ['shell syntax', '$(rm -rf ~)', "'$(rm -rf ~)'"],
    ['semicolon', 'a;b', "'a;b'"],
    ['newline', 'a\nb', "'a\nb'"],
  ])('%s', (_name, arg, quoted) => {
    expect(shellQuote(arg)).toBe(quoted);
  });

  test('commandLine joins the executable and quoted args', () => {
    expect(commandLine('/usr/bin/npx', ['-y', 'server files', '/tmp'])).toBe(
      "/usr/bin/npx -y 'server files' /tmp",
    );
  });
});

test('fingerprintPrefix shows 16 hex characters in two groups', () => {
  expect(fingerprintPrefix('0123456789abcdef'.repeat(4))).toBe('01234567 89abcdef');
});

test.each([
  [
    { field: 'executable', before: '/usr/bin/node', after: '/tmp/evil' } as const,
    { label: 'Program', before: '/usr/bin/node', after: '/tmp/evil' },
  ],
  [
    { field: 'env', key: 'TOKEN', before: null, after: '${GITHUB_TOKEN}' } as const,
    { label: 'Environment variable TOKEN', before: '(not set)', after: '${GITHUB_TOKEN}' },
  ],
  [
    { field: 'env', key: 'X', before: '1', after: null } as const,
    { label: 'Environment variable X', before: '1', after: '(not set)' },
  ],
  [
    { field: 'toolPrefix', before: 'notes', after: 'github' } as const,
    { label: 'Tool name prefix', before: 'notes', after: 'github' },
  ],
])('launchChangeView %#', (change, view) => {
  expect(launchChangeView(change)).toEqual(view);
});

test('consentReasonText has a sentence for every reason', () => {
  for (const reason of ['workspace', 'edited-outside', 'changed'] as const) {
    expect(consentReasonText(reason).length).toBeGreaterThan(10);
  }
});

test('provenanceText names the workspace folder', () => {
  expect(provenanceText({ provenance: 'workspace', workspaceRoot: '/src/repo' })).toBe(
    'a workspace config in /src/repo',
  );
  expect(provenanceText({ provenance: 'user', workspaceRoot: null })).toBe('your user config');
});

test('consentKey differs per fingerprint, so a dismissed card returns when the launch changes', () => {
  expect(consentKey({ server: 'a', fingerprint: '1' })).not.toBe(
    consentKey({ server: 'a', fingerprint: '2' }),
  );
});
