import { useLayoutEffect, useRef, type RefObject } from 'react';
import { cardFocus } from './card-focus';

/** Marks the element of a card that takes focus; its card carries `data-card-id`. */
export const CARD_FOCUS_ATTRIBUTE = 'data-card-focus';

/**
 * Moves focus as cards come and go (card-focus.ts): to the focus target of a card that appeared,
 * or, when the focused card went, to the next card or the message box (`composer`). `region` is
 * the element holding the cards (null while none is shown); `takeFocus` false leaves a new card
 * unfocused.
 */
export function useCardFocus(
  ids: readonly string[],
  region: RefObject<HTMLElement | null>,
  composer: RefObject<HTMLElement | null>,
  takeFocus = true,
): void {
  const previous = useRef<readonly string[]>([]);
  // A layout effect: focus moves before the browser paints the change, so nothing sees `<body>`.
  useLayoutEffect(() => {
    const before = previous.current;
    previous.current = ids;
    const active = document.activeElement;
    const focusInCards =
      active === null || active === document.body || (region.current?.contains(active) ?? false);
    const target = cardFocus({ before, after: ids, focusInCards, takeFocus });
    switch (target.kind) {
      case 'stay':
        return;
      case 'composer':
        composer.current?.focus();
        return;
      case 'card': {
        // Compared as values, not put in a selector: ids may hold characters CSS.escape rewrites.
        const cards = region.current?.querySelectorAll('[data-card-id]') ?? [];
        const card = [...cards].find(
          (element) => element.getAttribute('data-card-id') === target.id,
        );
        const focusable = card?.hasAttribute(CARD_FOCUS_ATTRIBUTE)
          ? card
          : card?.querySelector(`[${CARD_FOCUS_ATTRIBUTE}]`);
        if (focusable instanceof HTMLElement) focusable.focus();
        return;
      }
    }
  });
}
