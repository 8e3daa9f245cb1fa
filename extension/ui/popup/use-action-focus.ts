import { useEffect, useRef, type RefObject } from 'react';

/**
 * Keyboard focus for a server row's action buttons. Start, Stop and Restart are disabled while
 * they run, and the set of buttons changes with the server's state once the list is read again
 * (Start gives way to Stop); Cancel on a Revoke or Remove confirmation takes its group away. Each
 * time the focused button goes, focus falls to the page, and a keyboard user starts over from the
 * top of the popup.
 *
 * `refocus(label)` names the button (by its aria-label) that should hold focus. After each
 * render that is `ready` (no action running), while focus is lost (on the page's body), it goes to that button when the row has it
 * enabled, else to the first enabled button inside `fallback` (a selector: the row's actions),
 * else to the row's first button; the wish ends once it has gone elsewhere. Focus the user moved
 * to anything else is never taken.
 */
export function useActionFocus(
  group: RefObject<HTMLElement | null>,
  fallback: string,
  ready: boolean,
): (label: string) => void {
  const wanted = useRef<string | null>(null);
  useEffect(() => {
    const label = wanted.current;
    // While an action runs its buttons are disabled: wait for the row without it.
    if (label === null || !ready) return;
    const buttons = [...(group.current?.querySelectorAll('button') ?? [])].filter(
      (button) => !button.disabled,
    );
    const named = buttons.find((button) => button.getAttribute('aria-label') === label);
    const active = document.activeElement;
    if (active !== null && active !== document.body) {
      // Still on the named button (it may yet go, e.g. Start once the server runs): keep the
      // wish. Anywhere else, the user moved on.
      if (active !== named) wanted.current = null;
      return;
    }
    if (named !== undefined) {
      named.focus();
      return;
    }
    wanted.current = null;
    (buttons.find((button) => button.closest(fallback) !== null) ?? buttons[0])?.focus();
  });
  return (label) => {
    wanted.current = label;
  };
}
