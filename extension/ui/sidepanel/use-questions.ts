import type { ElicitationRequest } from '../../../protocol/elicitation';
import type { ConnectionStateName } from '../../messaging/connection';
import type { PageEvent } from '../../messaging/ui-protocol';
import type { PageClient } from '../../messaging/page-client';
import { useHostList } from './use-host-list';

export interface QuestionsState {
  readonly questions: readonly ElicitationRequest[];
  readonly error: string | null;
  readonly refresh: () => Promise<void>;
}

const readQuestions = async (client: PageClient): Promise<readonly ElicitationRequest[]> =>
  (await client.host('elicitation/pending', {})).requests;

const questionEvent = (event: PageEvent): boolean => event.type === 'elicitation';

/**
 * The questions servers are waiting on the user for (issue 12), from the host's
 * `elicitation/pending`: read when the host connects, when one is asked or ends (`elicitation`
 * events) and after the worker restarted.
 */
export function useQuestions(connection: ConnectionStateName): QuestionsState {
  const { items, error, refresh } = useHostList(connection, readQuestions, questionEvent);
  return { questions: items, error, refresh };
}
