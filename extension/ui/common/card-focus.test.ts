import { describe, expect, test } from 'vitest';
import { cardFocus, type CardFocus, type CardFocusInput } from './card-focus';

/**
 * Dangerous direction: focus left on `<body>` after an answer (a keyboard user starts over from
 * the top), or a new card nobody is told about. Moving focus when the user was elsewhere and
 * nothing new appeared would only disorient.
 */

const card = (id: string): CardFocus => ({ kind: 'card', id });
const composer: CardFocus = { kind: 'composer' };
const stay: CardFocus = { kind: 'stay' };

describe('cardFocus', () => {
  test.each<[string, CardFocusInput, CardFocus]>([
    ['a first card appears', { before: [], after: ['a'], focusInCards: false }, card('a')],
    [
      'a card appears beside one waiting: the new one',
      { before: ['a'], after: ['a', 'b'], focusInCards: true },
      card('b'),
    ],
    [
      'two appear at once: the oldest',
      { before: [], after: ['a', 'b'], focusInCards: false },
      card('a'),
    ],
    [
      'the focused last card is answered: the composer',
      { before: ['a'], after: [], focusInCards: true },
      composer,
    ],
    [
      'the focused card of two is answered: the other card',
      { before: ['a', 'b'], after: ['b'], focusInCards: true },
      card('b'),
    ],
    [
      'one answered and a new one at once: the new one',
      { before: ['a'], after: ['b'], focusInCards: true },
      card('b'),
    ],
    [
      'a card goes while the user is elsewhere: focus stays there',
      { before: ['a'], after: [], focusInCards: false },
      stay,
    ],
    ['nothing changes', { before: ['a'], after: ['a'], focusInCards: true }, stay],
    ['no cards at all', { before: [], after: [], focusInCards: true }, stay],
    [
      'a card that does not take focus appears',
      { before: [], after: ['a'], focusInCards: false, takeFocus: false },
      stay,
    ],
    [
      'such a card is answered: the composer still gets focus back',
      { before: ['a'], after: [], focusInCards: true, takeFocus: false },
      composer,
    ],
  ])('%s', (_name, input, expected) => {
    expect(cardFocus(input)).toEqual(expected);
  });
});
