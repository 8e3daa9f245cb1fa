import { expect, test } from 'vitest';
import { UNDO_WINDOW_MS } from '../../messaging/history';
import { nextUndoOffer, undoNoticeText, undoRemainingMs, type UndoEvent } from './undo-delete';

// Dangerous direction: an Undo still offered after the user moved on (it restores what they no
// longer expect), or one that vanishes before they can press it.

const offer = { id: 'c1', title: 'Groceries', at: 1_000 };

test.each<[string, typeof offer | null, UndoEvent, typeof offer | null]>([
  [
    'a deletion offers Undo',
    null,
    { type: 'deleted', id: 'c1', title: 'Groceries', at: 1_000 },
    offer,
  ],
  [
    'another deletion replaces it',
    offer,
    { type: 'deleted', id: 'c2', title: 'B', at: 2_000 },
    { id: 'c2', title: 'B', at: 2_000 },
  ],
  ['any other action ends it', offer, { type: 'moved-on' }, null],
  ['pressing Undo ends it', offer, { type: 'undone' }, null],
  ['it stays within the window', offer, { type: 'tick', now: 1_000 + UNDO_WINDOW_MS - 1 }, offer],
  ['it ends with the window', offer, { type: 'tick', now: 1_000 + UNDO_WINDOW_MS }, null],
  ['nothing to end', null, { type: 'tick', now: 5 }, null],
])('%s', (_name, before, event, after) => {
  expect(nextUndoOffer(before, event)).toEqual(after);
});

test('the timer runs out with the window, and the notice names what was deleted', () => {
  expect(undoRemainingMs(offer, 1_500)).toBe(UNDO_WINDOW_MS - 500);
  expect(undoRemainingMs(offer, 1_000 + 2 * UNDO_WINDOW_MS)).toBe(0);
  expect(undoNoticeText(offer)).toBe('Deleted “Groceries”.');
});
