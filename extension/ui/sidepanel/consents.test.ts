import { expect, test } from 'vitest';
import type { ConsentRequest, ServerSummary } from '../../../protocol/servers';
import { serverSummary } from '../../testing/server-summary';
import { consentKey } from '../common/consent-view';
import { consentHeading, pendingConsents } from './consents';

const consent: ConsentRequest = {
  server: 'repo-tools',
  reason: 'workspace',
  fingerprint: 'a'.repeat(64),
  executable: '/usr/bin/node',
  command: 'node',
  args: ['server.js'],
  env: [],
  cwd: '/src/repo',
  provenance: 'workspace',
  workspaceRoot: '/src/repo',
  sourceFile: '/src/repo/.mcp.json',
  changes: [],
  summary: 'new workspace server - needs approval',
  warnings: [],
  ignoredTrustClaims: [],
  remote: null,
};

function server(name: string, status: ServerSummary['status']): ServerSummary {
  return serverSummary(name, status, { provenance: 'workspace', workspaceRoot: '/src/repo' });
}

test('pendingConsents lists servers that need approval, minus dismissed ones', () => {
  const servers = [
    server('running', { state: 'stopped' }),
    server('repo-tools', { state: 'needs-approval', consent }),
  ];
  expect(pendingConsents(servers, new Set())).toEqual([consent]);
  expect(pendingConsents(servers, new Set([consentKey(consent)]))).toEqual([]);
  expect(
    pendingConsents(servers, new Set([consentKey({ ...consent, fingerprint: 'b'.repeat(64) })])),
  ).toEqual([consent]);
});

test('consentHeading', () => {
  expect(consentHeading(1)).toBe('1 server waits for your approval');
  expect(consentHeading(3)).toBe('3 servers wait for your approval');
});
