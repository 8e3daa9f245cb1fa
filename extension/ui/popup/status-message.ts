import { createContext, useContext } from 'react';

/**
 * Status lines in the popup (issue 14: "a stale 'Added x.' stays after x is removed"). A line
 * tells the outcome of the user's last action, so it stands until the next action anywhere in
 * the popup, and no longer than the server it names is configured. Never on a timer: a line that
 * vanishes while being read helps nobody.
 */

/** One line: what happened, the action it answers, and the server it is about (if one). */
export interface StatusMessage {
  readonly text: string;
  readonly error: boolean;
  /** The popup's action count when the action this line answers began. */
  readonly action: number;
  /** The server the line is about ("Added memory."); null when it names none. */
  readonly server: string | null;
}

/** Whether `status` still applies: no action began since, and its server is still configured. */
export function statusApplies(
  status: StatusMessage | null,
  now: { readonly action: number; readonly servers: readonly string[] | null },
): status is StatusMessage {
  if (status === null || status.action !== now.action) return false;
  // Before the list has loaded, nothing says the server is gone.
  return status.server === null || now.servers === null || now.servers.includes(status.server);
}

/** The popup's actions: how many began, and the call that begins one (returning its number). */
export interface PopupActions {
  readonly current: number;
  readonly begin: () => number;
}

/** Outside the popup (a lone component in a test) every line stands: no action ever begins. */
export const PopupActionsContext = createContext<PopupActions>({ current: 0, begin: () => 0 });

export function usePopupActions(): PopupActions {
  return useContext(PopupActionsContext);
}
