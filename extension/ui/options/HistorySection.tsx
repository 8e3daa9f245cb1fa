import { useEffect, useState, type SyntheticEvent } from 'react';
import { MAX_HISTORY_LIMIT, MIN_HISTORY_LIMIT } from '../../messaging/history';
import { Button } from '../common/Button';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';
import { Field } from '../popup/Field';

/** How many conversations the side panel's history keeps (issue 14): beyond it the oldest go. */
export function HistorySection() {
  const client = pageClient();
  const [limit, setLimit] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>(undefined);

  useEffect(() => {
    client.request('history/bound', {}).then(
      (bound) => {
        setLimit(String(bound.limit));
      },
      (reason: unknown) => {
        setError(errorMessage(reason));
      },
    );
  }, [client]);

  const save = (event: SyntheticEvent): void => {
    event.preventDefault();
    const wanted = Number(limit);
    if (!Number.isInteger(wanted) || wanted < MIN_HISTORY_LIMIT || wanted > MAX_HISTORY_LIMIT) {
      setError(`Enter a whole number from ${MIN_HISTORY_LIMIT} to ${MAX_HISTORY_LIMIT}.`);
      return;
    }
    setError(undefined);
    client.request('history/bound', { limit: wanted }).then(
      (bound) => {
        setStatus(
          bound.pruned === null
            ? `Keeping the newest ${bound.limit} conversations.`
            : `Keeping the newest ${bound.limit} conversations; older ones were removed.`,
        );
      },
      (reason: unknown) => {
        setError(errorMessage(reason));
      },
    );
  };

  return (
    <section className="op-card" aria-labelledby="history-heading">
      <h2 id="history-heading">Conversation history</h2>
      <p className="op-muted">
        Conversations are stored in this browser only. Beyond this many, the oldest are removed (the
        side panel says when).
      </p>
      <form onSubmit={save} noValidate>
        <Field label="Conversations to keep" error={error}>
          {(control) => (
            <input
              {...control}
              type="number"
              inputMode="numeric"
              min={MIN_HISTORY_LIMIT}
              max={MAX_HISTORY_LIMIT}
              value={limit}
              onChange={(event) => {
                setLimit(event.target.value);
                setStatus(null);
              }}
            />
          )}
        </Field>
        <div className="op-actions">
          <Button type="submit" variant="primary">
            Save
          </Button>
        </div>
        <p role="status">{status}</p>
      </form>
    </section>
  );
}
