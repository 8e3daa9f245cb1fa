import { useEffect, useMemo, useState } from 'react';
import type { ElicitationRequest } from '../../../protocol/elicitation';
import type { ConnectionStateName } from '../../messaging/connection';
import { coalesce } from '../common/coalesce';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';

export interface QuestionsState {
  readonly questions: readonly ElicitationRequest[];
  readonly error: string | null;
  readonly refresh: () => Promise<void>;
}

/**
 * The questions servers are waiting on the user for (issue 12), from the host's
 * `elicitation/pending`: read when the host connects, when one is asked or ends (`elicitation`
 * events) and after the worker restarted.
 */
export function useQuestions(connection: ConnectionStateName): QuestionsState {
  const client = pageClient();
  const [questions, setQuestions] = useState<readonly ElicitationRequest[]>([]);
  const [error, setError] = useState<string | null>(null);
  const refresh = useMemo(
    () =>
      coalesce(async () => {
        try {
          const result = await client.host('elicitation/pending', {});
          setQuestions(result.requests);
          setError(null);
        } catch (reason) {
          setError(errorMessage(reason));
        }
      }),
    [client],
  );

  useEffect(() => {
    if (connection === 'connected') void refresh();
    else setQuestions([]);
  }, [connection, refresh]);

  useEffect(() => {
    const offEvent = client.onEvent((event) => {
      if (event.type === 'elicitation') void refresh();
    });
    const offReconnect = client.onReconnect(() => void refresh());
    return () => {
      offEvent();
      offReconnect();
    };
  }, [client, refresh]);

  return { questions, error, refresh };
}
