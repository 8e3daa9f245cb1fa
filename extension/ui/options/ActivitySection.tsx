import { useEffect, useMemo, useRef, useState } from 'react';
import { Button } from '../common/Button';
import { VisibleText } from '../common/VisibleText';
import { Field } from '../popup/Field';
import { useServers } from '../popup/use-host-data';
import {
  ALL_ACTIVITY,
  EVENT_CHOICES,
  activityRow,
  emptyText,
  isActivityEvent,
  serverChoices,
  skippedText,
  timeFormatter,
  type ActivityFilter,
  type ActivityRow,
} from './activity-view';
import { useActivity } from './use-activity';
import './activity.css';

const COLUMNS = ['Time', 'Event', 'Server', 'Tool', 'Decision', 'Outcome', 'Duration'] as const;

/**
 * The activity view (issue 13): what the host's audit log recorded, newest first, with who
 * decided each call, filtered by server and kind, older pages on demand. A real table whose
 * rows become labelled blocks on a narrow page; the explicit roles keep it a table for screen
 * readers when CSS changes its display. Names come from servers and config: shown as text with
 * hidden characters marked.
 */
export function ActivitySection() {
  const [filter, setFilter] = useState<ActivityFilter>(ALL_ACTIVITY);
  const { state, reload, loadOlder } = useActivity(filter);
  const servers = useServers();
  const formatTime = useMemo(() => timeFormatter(), []);
  const fullTime = useMemo(
    () => (iso: string) => new Date(iso).toLocaleString(undefined, { timeZoneName: 'short' }),
    [],
  );

  const entries = state.kind === 'loaded' ? state.list.entries : [];
  const choices = serverChoices(
    (servers.data ?? []).map((server) => server.name),
    entries,
    filter.server,
  );
  const rows = entries.map((entry, index) => activityRow(entry, index, formatTime));

  // `options.html#activity` (the popup's link): the browser's own jump happened before this
  // section had rows; go there once the first answer has laid it out.
  const jumped = useRef(false);
  useEffect(() => {
    if (jumped.current || state.kind === 'loading') return;
    jumped.current = true;
    if (window.location.hash === '#activity') {
      document.getElementById('activity')?.scrollIntoView({ block: 'start' });
    }
  }, [state.kind]);

  return (
    <section className="op-card" id="activity" aria-labelledby="activity-heading">
      <h2 id="activity-heading">Activity</h2>
      <p className="op-muted">
        What ran on your machine and who decided: your policy, you on an approval card, or the
        host’s own gates. Switchyard records names, sizes and timings, never the arguments or
        results of a call.
      </p>
      <div className="op-activity-filters" role="group" aria-label="Filter activity">
        <Field label="Server">
          {(control) => (
            <select
              {...control}
              value={filter.server ?? ''}
              onChange={(event) => {
                const value = event.target.value;
                setFilter({ ...filter, server: value === '' ? null : value });
              }}
            >
              <option value="">All servers</option>
              {choices.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Show">
          {(control) => (
            <select
              {...control}
              value={filter.event ?? ''}
              onChange={(event) => {
                const value = event.target.value;
                setFilter({ ...filter, event: isActivityEvent(value) ? value : null });
              }}
            >
              <option value="">Everything</option>
              {EVENT_CHOICES.map((choice) => (
                <option key={choice.event} value={choice.event}>
                  {choice.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Button onClick={reload} disabled={state.kind === 'loading'}>
          Refresh
        </Button>
      </div>

      {state.kind === 'loading' && (
        <p className="op-muted" role="status">
          Loading activity…
        </p>
      )}
      {state.kind === 'failed' && (
        <div className="op-actions" role="alert">
          <p className="sy-error-text">Could not load the activity: {state.error}</p>
          <Button size="small" onClick={reload}>
            Try again
          </Button>
        </div>
      )}
      {state.kind === 'loaded' && rows.length === 0 && (
        <p className="op-muted op-activity-empty" role="status">
          {emptyText(filter)}
        </p>
      )}
      {rows.length > 0 && (
        <div className="op-activity-scroll">
          <ActivityTable rows={rows} fullTime={fullTime} />
        </div>
      )}
      {state.kind === 'loaded' && (
        <>
          {skippedText(state.list.skipped) !== null && (
            <p className="op-warning">{skippedText(state.list.skipped)}</p>
          )}
          {state.older.error !== null && (
            <div className="op-actions" role="alert">
              <p className="sy-error-text">{state.older.error}</p>
              <Button size="small" onClick={reload}>
                Show the newest
              </Button>
            </div>
          )}
          {state.list.nextCursor !== null ? (
            <Button onClick={loadOlder} disabled={state.older.loading}>
              {state.older.loading ? 'Loading older activity…' : 'Load older activity'}
            </Button>
          ) : (
            rows.length > 0 && (
              <p className="op-muted">
                That is all the log holds (it keeps about the last 20 MiB of activity).
              </p>
            )
          )}
        </>
      )}
    </section>
  );
}

function ActivityTable({
  rows,
  fullTime,
}: {
  readonly rows: readonly ActivityRow[];
  readonly fullTime: (iso: string) => string;
}) {
  return (
    <table className="op-activity-table" role="table" aria-labelledby="activity-heading">
      <caption className="sy-sr-only">Newest first</caption>
      <thead role="rowgroup">
        <tr role="row">
          {COLUMNS.map((column) => (
            <th key={column} role="columnheader" scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup">
        {rows.map((row) => (
          <tr key={row.key} role="row">
            <td role="cell" data-label="Time" className="op-activity-time">
              <time dateTime={row.ts} title={fullTime(row.ts)}>
                {row.time}
              </time>
            </td>
            <td role="cell" data-label="Event">
              {row.event}
            </td>
            <td role="cell" data-label="Server" className="op-activity-name">
              <VisibleText text={row.server} />
            </td>
            <td role="cell" data-label="Tool" className="op-activity-name">
              <span className="op-activity-mono">
                <BreakableName text={row.subject} />
              </span>
            </td>
            <td role="cell" data-label="Decision" className="op-activity-decision">
              <VisibleText text={row.decision} />
            </td>
            <td role="cell" data-label="Outcome" className={`op-activity-outcome--${row.tone}`}>
              <VisibleText text={row.outcome} />
            </td>
            <td role="cell" data-label="Duration" className="op-activity-duration">
              {row.duration}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A name that may break after its `__` separators (`files__` / `read_text_file`), not inside a word. */
function BreakableName({ text }: { readonly text: string }) {
  const parts = text.split(/(?<=__)/);
  return (
    <>
      {parts.map((part, index) => (
        <span key={index}>
          <VisibleText text={part} />
          {index < parts.length - 1 && <wbr />}
        </span>
      ))}
    </>
  );
}
