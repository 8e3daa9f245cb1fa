import { expect, test } from 'vitest';
import { statusApplies, type StatusMessage } from './status-message';

// Issue 14: "a stale 'Added x.' stays after x is removed". The dangerous direction is a line that
// outlives what it reports (it tells the user something false); one cleared early costs a re-read.

const added: StatusMessage = { text: 'Added memory.', error: false, action: 3, server: 'memory' };
const failed: StatusMessage = { text: 'No such file.', error: true, action: 3, server: null };

const cases: ReadonlyArray<
  readonly [string, StatusMessage | null, number, readonly string[] | null, boolean]
> = [
  ['no line', null, 3, ['memory'], false],
  ['the answer to the last action, its server listed', added, 3, ['memory', 'fs'], true],
  ['its server removed since', added, 3, ['fs'], false],
  ['another action began since', added, 4, ['memory'], false],
  ['before the list has loaded', added, 3, null, true],
  ['a line naming no server, no action since', failed, 3, [], true],
  ['a line naming no server, after the next action', failed, 4, [], false],
];

test.each(cases)('%s', (_label, status, action, servers, applies) => {
  expect(statusApplies(status, { action, servers })).toBe(applies);
});
