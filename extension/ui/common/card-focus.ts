/**
 * Where keyboard focus goes when the side panel's cards change (issue 14): a card that appears
 * takes focus (the run waits on it, and a screen reader user must hear that it came); when the
 * card that had focus goes (answered, expired, the run stopped), focus moves on to the next
 * waiting card, or back to the message box, never to `<body>`, where a keyboard user would have
 * to start again from the top of the page.
 */

export type CardFocus =
  | { readonly kind: 'card'; readonly id: string }
  | { readonly kind: 'composer' }
  | { readonly kind: 'stay' };

export interface CardFocusInput {
  /** The cards shown before this change, oldest first. */
  readonly before: readonly string[];
  /** The cards shown now, oldest first. */
  readonly after: readonly string[];
  /**
   * Focus is lost with the cards: on `<body>` (the focused card went away) or still inside the
   * cards' region.
   */
  readonly focusInCards: boolean;
  /**
   * Whether a card that appears takes focus (default true). Launch consents do not: they wait
   * for nobody's run and show up as the panel opens, where taking focus would only disorient.
   */
  readonly takeFocus?: boolean;
}

/**
 * The oldest new card, if one appeared; else, when a card went while focus was with the cards,
 * the oldest card still waiting or the composer; else focus stays where the user put it.
 */
export function cardFocus({
  before,
  after,
  focusInCards,
  takeFocus = true,
}: CardFocusInput): CardFocus {
  const added = after.find((id) => !before.includes(id));
  if (added !== undefined && takeFocus) return { kind: 'card', id: added };
  const removed = before.some((id) => !after.includes(id));
  if (!removed || !focusInCards) return { kind: 'stay' };
  const next = after[0];
  return next === undefined ? { kind: 'composer' } : { kind: 'card', id: next };
}
