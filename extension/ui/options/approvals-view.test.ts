import { expect, test } from 'vitest';
import type { StoredApproval } from '../../../protocol/approvals';
import {
  approvalScopeText,
  approvalUseText,
  forgetLabel,
  forgetPinsLabel,
  forgetParams,
  forgottenText,
  pinsText,
  reviewOrder,
} from './approvals-view';

const approval = (over: Partial<StoredApproval>): StoredApproval => ({
  server: 'memory',
  scope: 'user',
  fingerprint: 'a'.repeat(64),
  approvedAt: '2026-11-02T08:41:17.204Z',
  executable: '/usr/bin/node',
  args: [],
  use: 'in-use',
  pins: 0,
  ...over,
});

// Dangerous direction: a Forget that reaches another scope's approval than the one shown (a
// configured workspace server of the same name would lose its approval instead).
test.each<[string, Partial<StoredApproval>, unknown]>([
  ['the user tier, named as such', {}, { server: 'memory', user: true }],
  [
    'a workspace, by its folder',
    { scope: '/home/alex/src/webshop' },
    { server: 'memory', workspace: '/home/alex/src/webshop' },
  ],
])('forgetParams: %s', (_, over, params) => {
  expect(forgetParams(approval(over))).toEqual(params);
});

test('the scope and use read as words, and the label names both server and scope', () => {
  expect(approvalScopeText('user')).toBe('your config.json');
  expect(approvalScopeText('/src/repo')).toBe('workspace /src/repo');
  expect(approvalUseText('unconfigured')).toBe('Not in use: no server of that name runs from here');
  expect(forgetLabel(approval({ scope: '/src/repo' }))).toBe(
    'Forget the approval of memory from workspace /src/repo',
  );
});

test('approvals nothing uses come first, each group in the order given', () => {
  const list = [
    approval({ server: 'a' }),
    approval({ server: 'b', use: 'unconfigured' }),
    approval({ server: 'c' }),
    approval({ server: 'd', use: 'changed' }),
  ];
  expect(reviewOrder(list).map((a) => a.server)).toEqual(['b', 'd', 'a', 'c']);
});

test.each([
  [0, ''],
  [1, '1 tool pin'],
  [3, '3 tool pins'],
])('pinsText(%i)', (pins, text) => {
  expect(pinsText(pins)).toBe(text);
});

test.each<[string, { launch: boolean; pins: number }, string]>([
  ['approval only', { launch: true, pins: 0 }, 'Forgot the approval of fs.'],
  ['approval and pins', { launch: true, pins: 2 }, 'Forgot the approval of fs and 2 tool pins.'],
  ['pins a revoke left', { launch: false, pins: 1 }, 'Forgot 1 tool pin of fs.'],
  ['nothing left', { launch: false, pins: 0 }, 'Nothing of fs was left to forget.'],
])('forgottenText: %s', (_, result, text) => {
  expect(forgottenText('fs', result)).toBe(text);
});

test('forgetPinsLabel names the server and where it was configured', () => {
  expect(forgetPinsLabel({ server: 'fs', scope: '/src/repo' })).toBe(
    'Forget the tool pins of fs from workspace /src/repo',
  );
});
