import type { ConnectionStateName } from '../../messaging/connection';
import { QuestionCard } from './QuestionCard';
import { useQuestions } from './use-questions';

/** Servers' questions waiting for the user (issue 12), newest last; the newest takes focus. */
export function QuestionSection({ connection }: { readonly connection: ConnectionStateName }) {
  const { questions, error } = useQuestions(connection);
  if (questions.length === 0) {
    return error === null || connection !== 'connected' ? null : (
      <p className="sy-error-text">Could not read servers’ questions: {error}</p>
    );
  }
  return (
    <section className="sy-questions" aria-label="Servers asking you something">
      <p className="sy-sr-only" role="status">
        {questions.length === 1
          ? '1 server is asking you something'
          : `${questions.length} servers are asking you something`}
      </p>
      {questions.map((request, index) => (
        <QuestionCard
          key={request.id}
          request={request}
          autoFocus={index === questions.length - 1}
        />
      ))}
    </section>
  );
}
