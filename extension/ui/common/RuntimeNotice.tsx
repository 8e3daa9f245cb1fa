import { useState } from 'react';
import type { ConnectionState } from '../../messaging/connection';
import { Button } from './Button';
import { runtimeNoticeView } from './connection-view';
import { Notice } from './Notice';

/** The pages' localStorage key for the Node version whose notice the user hid. */
export const RUNTIME_NOTICE_HIDDEN_KEY = 'switchyard.runtimeNotice.hiddenFor';

/** Where "Hide" is remembered: the extension pages' localStorage (one origin for all of them). */
export type NoticeMemory = Pick<Storage, 'getItem' | 'setItem'>;

function pageStorage(): NoticeMemory | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // A browser that refuses storage to the page: the notice then shows every time.
    return null;
  }
}

function hiddenFor(memory: NoticeMemory | null): string | null {
  try {
    return memory?.getItem(RUNTIME_NOTICE_HIDDEN_KEY) ?? null;
  } catch {
    return null;
  }
}

export interface RuntimeNoticeProps {
  readonly state: ConnectionState;
  /** Offer "Hide" (the popup, opened all day); the settings page always shows the notice. */
  readonly hideable?: boolean;
  readonly memory?: NoticeMemory | null;
}

/**
 * Says that the host runs on a Node past its end of life, and what to do about it. Hidden by
 * the user, it stays hidden for that Node version only: the next version past its end of life
 * shows it again.
 */
export function RuntimeNotice({
  state,
  hideable = false,
  memory = pageStorage(),
}: RuntimeNoticeProps) {
  const [hidden, setHidden] = useState(() => (hideable ? hiddenFor(memory) : null));
  const view = runtimeNoticeView(state);
  if (view === null || hidden === view.node) return null;
  const hide = (): void => {
    try {
      memory?.setItem(RUNTIME_NOTICE_HIDDEN_KEY, view.node);
    } catch {
      // Not remembered (storage full or refused): hidden for this page only.
    }
    setHidden(view.node);
  };
  return (
    <Notice
      tone="warning"
      title={view.title}
      actions={
        hideable ? (
          <Button size="small" onClick={hide}>
            Hide for Node {view.node}
          </Button>
        ) : undefined
      }
    >
      <p>{view.message}</p>
      <p className="sy-connection__command">
        <code className="sy-selectable">{view.command}</code>
      </p>
    </Notice>
  );
}
