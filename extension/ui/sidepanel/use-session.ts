import { useCallback, useEffect, useMemo, useReducer } from 'react';
import type { ApprovalDecision } from '../../messaging/approvals';
import type { AttachmentRef } from '../../messaging/conversation';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';
import { chatReducer, initialChatState, type ChatState } from './chat-state';
import type { ComposerFile } from '../../messaging/images';

/** What the panel can ask the worker to do; each reports failures as inline notices. */
export interface SessionActions {
  /** Resolves true when the worker accepted the message. */
  readonly send: (
    text: string,
    attachments: readonly AttachmentRef[],
    files?: readonly ComposerFile[],
  ) => Promise<boolean>;
  readonly stop: () => void;
  /** Retry, Regenerate, Edit: the user message at `index` again (edited: `text`). */
  readonly resend: (index: number, text?: string) => void;
  /** Cancel on one running call: it ends, the run goes on. */
  readonly cancelCall: (callId: string) => void;
  readonly newChat: () => void;
  /** The model for this conversation from its next request on; null: the default (issue 14). */
  readonly setModel: (model: string | null) => void;
  readonly resolveApproval: (approvalId: string, decision: ApprovalDecision) => Promise<void>;
  readonly setAutopilot: (on: boolean) => void;
  readonly dismissNotice: (id: number) => void;
  readonly reload: () => void;
}

/**
 * The panel's session: the snapshot on open (and again after the worker restarted), then every
 * pushed event, through chatReducer.
 */
export function useSession(): { readonly state: ChatState; readonly actions: SessionActions } {
  const [state, dispatch] = useReducer(chatReducer, initialChatState);
  const client = pageClient();

  const fail = useCallback((error: unknown) => {
    dispatch({ type: 'request-failed', message: errorMessage(error) });
  }, []);

  const reload = useCallback(() => {
    client.request('session/snapshot', {}).then((snapshot) => {
      dispatch({ type: 'snapshot', snapshot });
    }, fail);
  }, [client, fail]);

  useEffect(() => {
    const offEvent = client.onEvent((event) => {
      dispatch({ type: 'event', event });
    });
    const offReconnect = client.onReconnect(reload);
    reload();
    return () => {
      offEvent();
      offReconnect();
    };
  }, [client, reload]);

  const actions = useMemo<SessionActions>(
    () => ({
      send: async (text, attachments, files = []) => {
        dispatch({ type: 'send-requested' });
        try {
          await client.request('chat/send', {
            text,
            ...(attachments.length === 0 ? {} : { attachments: [...attachments] }),
            ...(files.length === 0 ? {} : { files: [...files] }),
          });
          dispatch({ type: 'send-settled' });
          return true;
        } catch (error) {
          fail(error);
          return false;
        }
      },
      stop: () => {
        client.request('chat/stop', {}).catch(fail);
      },
      resend: (index, text) => {
        dispatch({ type: 'send-requested' });
        client
          .request('chat/resend', { index, ...(text === undefined ? {} : { text }) })
          .then(() => {
            dispatch({ type: 'send-settled' });
          }, fail);
      },
      cancelCall: (callId) => {
        dispatch({ type: 'cancel-requested', callId });
        client.request('chat/cancelCall', { callId }).catch(fail);
      },
      newChat: () => {
        client.request('chat/new', {}).then(({ conversation }) => {
          dispatch({
            type: 'event',
            event: { type: 'agent', event: { type: 'conversation-changed', conversation } },
          });
        }, fail);
      },
      setModel: (model) => {
        client.request('chat/setModel', { model }).then(({ conversation }) => {
          dispatch({
            type: 'event',
            event: { type: 'agent', event: { type: 'conversation-changed', conversation } },
          });
        }, fail);
      },
      resolveApproval: async (approvalId, decision) => {
        const { resolved } = await client.request('approval/resolve', { approvalId, decision });
        if (!resolved) {
          dispatch({ type: 'approval-gone', approvalId });
          dispatch({
            type: 'request-failed',
            message: 'That approval was no longer waiting: the reply it belonged to had stopped.',
          });
        }
      },
      setAutopilot: (on) => {
        // Shown at once (a checkbox must follow the click); the worker's answer is the truth.
        dispatch({ type: 'autopilot', on });
        client.request('autopilot/set', { on }).then(
          ({ autopilot }) => {
            dispatch({ type: 'autopilot', on: autopilot });
          },
          (error: unknown) => {
            dispatch({ type: 'autopilot', on: !on });
            fail(error);
          },
        );
      },
      dismissNotice: (id) => {
        dispatch({ type: 'dismiss-notice', id });
      },
      reload,
    }),
    [client, fail, reload],
  );

  return { state, actions };
}
