import { UNDO_WINDOW_MS } from '../../messaging/history';

/**
 * The Undo offered after a deletion in the history (issue 14): it lasts UNDO_WINDOW_MS, or until
 * the user does anything else in the list (open, rename, export, search, another deletion), so
 * Undo never restores something the user has moved on from. Pure: the hook feeds it the clock.
 */

export interface UndoOffer {
  readonly id: string;
  readonly title: string;
  /** When it was deleted (page clock). */
  readonly at: number;
}

export type UndoEvent =
  | { readonly type: 'deleted'; readonly id: string; readonly title: string; readonly at: number }
  /** Any other action in the list. */
  | { readonly type: 'moved-on' }
  | { readonly type: 'tick'; readonly now: number }
  | { readonly type: 'undone' };

export function nextUndoOffer(offer: UndoOffer | null, event: UndoEvent): UndoOffer | null {
  switch (event.type) {
    case 'deleted':
      return { id: event.id, title: event.title, at: event.at };
    case 'moved-on':
    case 'undone':
      return null;
    case 'tick':
      return offer !== null && event.now - offer.at < UNDO_WINDOW_MS ? offer : null;
  }
}

/** Milliseconds until the offer ends (for the hook's timer). */
export function undoRemainingMs(offer: UndoOffer, now: number): number {
  return Math.max(0, offer.at + UNDO_WINDOW_MS - now);
}

export function undoNoticeText(offer: UndoOffer): string {
  return `Deleted “${offer.title}”.`;
}
