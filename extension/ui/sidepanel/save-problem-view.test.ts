import { expect, test } from 'vitest';
import { saveProblemText } from './save-problem-view';

// A failed save must never read like a saved one: the user has to know what is at risk.

test('a full storage says what failed, what is at risk, and what to do', () => {
  const text = saveProblemText({
    kind: 'quota',
    detail: 'QUOTA_BYTES quota exceeded',
    currentUnsaved: true,
  });
  expect(text.title).toMatch(/storage for Switchyard is full/);
  expect(text.body).toMatch(/^This conversation is not saved\. It stays on screen/);
  expect(text.advice).toMatch(/Delete old conversations in History/);
  expect(text.advice).toMatch(/lower “Conversations to keep”/);
});

test('another failure quotes the browser and says the chat on screen is at risk', () => {
  const text = saveProblemText({ kind: 'other', detail: 'IO error', currentUnsaved: true });
  expect(text.body).toMatch(/not saved.*The browser said: IO error$/s);
});

test('when only a history change failed, the conversation on screen is said to be saved', () => {
  const text = saveProblemText({ kind: 'quota', detail: 'x', currentUnsaved: false });
  expect(text.body).toMatch(/^The conversation on screen is saved/);
});
