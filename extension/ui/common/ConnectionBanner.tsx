import type { ConnectionState } from '../../messaging/connection';
import { Button } from './Button';
import { connectionBannerView, splitCodeSpans } from './connection-view';
import { pageClient } from './page-client';
import { useAsyncAction } from './use-async-action';
import './common.css';

export interface ConnectionBannerProps {
  readonly state: ConnectionState;
  /** What "Retry" does; by default asks the worker to reconnect (`host/reconnect`). */
  readonly onRetry?: () => Promise<unknown>;
}

function retryDefault(): Promise<unknown> {
  return pageClient().request('host/reconnect', {});
}

/**
 * The native host's state when it needs the user: not installed, crashed, another protocol
 * version, or configuration problems. Says what to do, shows the command to run, and offers
 * "Retry". Renders nothing while connected without problems.
 */
export function ConnectionBanner({ state, onRetry = retryDefault }: ConnectionBannerProps) {
  const { busy, error, run } = useAsyncAction();
  const view = connectionBannerView(state);
  if (view === null) return null;
  const retry = (): void => {
    run(onRetry);
  };
  return (
    <div
      className={`sy-notice sy-notice--${view.tone} sy-connection`}
      role={view.tone === 'error' ? 'alert' : 'status'}
    >
      <p className="sy-notice__title">{view.title}</p>
      <p className="sy-notice__body">
        {splitCodeSpans(view.message).map((piece, index) =>
          piece.code ? <code key={index}>{piece.text}</code> : piece.text,
        )}
      </p>
      {view.command === null ? null : (
        <p className="sy-connection__command">
          In a terminal: <code className="sy-selectable">{view.command}</code>
        </p>
      )}
      {view.details.length === 0 ? null : (
        <ul className="sy-connection__details">
          {view.details.map((line, index) => (
            <li key={index}>{line}</li>
          ))}
        </ul>
      )}
      {error === null ? null : <p className="sy-error-text">{error}</p>}
      {view.canRetry ? (
        <div className="sy-notice__actions">
          <Button size="small" onClick={retry} disabled={busy} aria-busy={busy}>
            Retry
          </Button>
        </div>
      ) : null}
    </div>
  );
}
