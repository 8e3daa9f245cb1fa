import { useRef, type RefObject } from 'react';
import type { ConnectionStateName } from '../../messaging/connection';
import { QuestionCard } from './QuestionCard';
import { useCardFocus } from '../common/use-card-focus';
import { useQuestions } from './use-questions';

export interface QuestionSectionProps {
  readonly connection: ConnectionStateName;
  /** The message box: focus returns there once the last question is answered (issue 14). */
  readonly composer: RefObject<HTMLElement | null>;
}

/**
 * Servers' questions waiting for the user (issue 12), newest last. A new card takes focus; when
 * the focused one is answered, focus moves to the next one or back to the message box.
 */
export function QuestionSection({ connection, composer }: QuestionSectionProps) {
  const { questions, error } = useQuestions(connection);
  const region = useRef<HTMLElement>(null);
  useCardFocus(
    questions.map((request) => request.id),
    region,
    composer,
  );
  if (questions.length === 0) {
    return error === null || connection !== 'connected' ? null : (
      <p className="sy-error-text">Could not read servers’ questions: {error}</p>
    );
  }
  return (
    <section ref={region} className="sy-questions" aria-label="Servers asking you something">
      <p className="sy-sr-only" role="status">
        {questions.length === 1
          ? '1 server is asking you something'
          : `${questions.length} servers are asking you something`}
      </p>
      {questions.map((request) => (
        <QuestionCard key={request.id} request={request} />
      ))}
    </section>
  );
}
