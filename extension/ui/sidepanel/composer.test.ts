import { describe, expect, test } from 'vitest';
import { MAX_CHAT_MESSAGE_CHARS } from '../../messaging/ui-protocol';
import { composerKeyAction, draftAfterSend, sendCheck, takesProposal } from './composer';

test.each([
  [{ key: 'Enter', shiftKey: false, isComposing: false }, 'send'],
  [{ key: 'Enter', shiftKey: true, isComposing: false }, 'default'],
  [{ key: 'Enter', shiftKey: false, isComposing: true }, 'default'],
  [{ key: 'a', shiftKey: false, isComposing: false }, 'default'],
] as const)('composerKeyAction(%o) = %s', (event, action) => {
  expect(composerKeyAction(event)).toBe(action);
});

describe('sendCheck', () => {
  test('sends trimmed text', () => {
    expect(sendCheck({ text: '  hi \n', busy: false, hasProvider: true })).toEqual({
      ok: true,
      text: 'hi',
    });
  });
  test.each([
    ['busy', { text: 'hi', busy: true, hasProvider: true }, null],
    ['empty', { text: '  \n', busy: false, hasProvider: true }, null],
    [
      'no provider',
      { text: 'hi', busy: false, hasProvider: false },
      'Set up a model provider first.',
    ],
  ])('blocks when %s', (_name, input, reason) => {
    expect(sendCheck(input)).toEqual({ ok: false, reason });
  });
  test.each([
    ['an image alone', { text: ' ', busy: false, hasProvider: true, attached: 1 }, ''],
    ['words and an image', { text: 'look', busy: false, hasProvider: true, attached: 2 }, 'look'],
  ])('sends %s', (_name, input, text) => {
    expect(sendCheck(input)).toEqual({ ok: true, text });
  });
  test('an attachment does not send while busy or without a provider', () => {
    expect(sendCheck({ text: '', busy: true, hasProvider: true, attached: 1 }).ok).toBe(false);
    expect(sendCheck({ text: '', busy: false, hasProvider: false, attached: 1 }).ok).toBe(false);
  });
  test('says how far over the limit a message is', () => {
    const result = sendCheck({
      text: 'x'.repeat(MAX_CHAT_MESSAGE_CHARS + 5),
      busy: false,
      hasProvider: true,
    });
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.reason).toMatch(/^Too long: 5 characters over/);
  });
});

test.each([
  ['', true],
  ['  \n', true],
  ['my own words', false],
  ['an earlier proposal the user is reading', false],
])('takesProposal(%j) = %s', (current, takes) => {
  expect(takesProposal(current)).toBe(takes);
});

describe('draftAfterSend', () => {
  test('empties the box that still holds what was sent', () => {
    expect(draftAfterSend('summarise this page', 'summarise this page')).toBe('');
  });
  test('keeps what the user typed after pressing Send, while the worker read the attachments', () => {
    expect(
      draftAfterSend('summarise this page\nand then list the links', 'summarise this page'),
    ).toBe('and then list the links');
  });
  test('leaves a box edited some other way as it is', () => {
    expect(draftAfterSend('a new question', 'summarise this page')).toBe('a new question');
  });
});
