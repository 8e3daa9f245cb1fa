import { useEffect, useState } from 'react';
import type { CallProgress } from '../../messaging/agent-events';
import { Button } from '../common/Button';
import { JsonView } from '../common/JsonView';
import { UntrustedText } from '../common/UntrustedText';
import { VisibleText } from '../common/VisibleText';
import { elapsedText, progressView, toolStatusLabel, type ToolRowStatus } from './transcript';
import { splitUntrustedBlocks } from './untrusted-blocks';

export interface ToolRowProps {
  readonly name: string;
  readonly arguments: unknown;
  readonly status: ToolRowStatus;
  readonly result: string | null;
  /** While it runs: the server's last progress report, or null. */
  readonly progress: CallProgress | null;
  /** The user pressed Cancel; the result is on the way. */
  readonly cancelling: boolean;
  readonly onCancel: () => void;
}

/** Longest progress message a row shows (the server's words, after the host's gate). */
const MAX_PROGRESS_MESSAGE_CHARS = 200;

/**
 * A running call's live line: the server's progress (a bar, its words) if it reports any, how
 * long it has run since the panel saw it start, and Cancel for this call alone (Stop ends the run).
 */
function RunningCall({
  name,
  progress,
  cancelling,
  onCancel,
}: {
  readonly name: string;
  readonly progress: CallProgress | null;
  readonly cancelling: boolean;
  readonly onCancel: () => void;
}) {
  const [started] = useState(() => Date.now());
  const [now, setNow] = useState(started);
  useEffect(() => {
    const timer = setInterval(() => {
      setNow(Date.now());
    }, 1000);
    return () => {
      clearInterval(timer);
    };
  }, []);
  const view = progress === null ? null : progressView(progress);
  const fraction = view?.fraction ?? null;
  const message = progress?.message?.slice(0, MAX_PROGRESS_MESSAGE_CHARS);
  return (
    <div className="sy-tool__live">
      <progress
        className="sy-tool__progress"
        aria-label={`Progress of ${name}`}
        {...(fraction === null ? {} : { value: fraction, max: 1 })}
      />
      <span className="sy-tool__progress-text" role="status">
        {view === null || view.text === '' ? '' : `${view.text} · `}
        {message === undefined || message === '' ? null : (
          <>
            <VisibleText text={message} />
            {' · '}
          </>
        )}
        {elapsedText(now - started)}
      </span>
      <Button
        size="small"
        variant="quiet"
        disabled={cancelling}
        aria-label={`Cancel ${name}`}
        onClick={onCancel}
      >
        {cancelling ? 'Cancelling…' : 'Cancel'}
      </Button>
    </div>
  );
}

const STATUS_ICONS: Readonly<Record<ToolRowStatus, string>> = {
  queued: '…',
  'waiting-approval': '?',
  running: '⟳',
  ok: '✓',
  error: '✗',
  denied: '⊘',
  cancelled: '■',
  interrupted: '!',
};

/** What the model read, with each untrusted-data block labelled by its source. Text only. */
function ToolResult({ content }: { readonly content: string }) {
  return (
    <>
      {splitUntrustedBlocks(content).map((segment, index) =>
        segment.kind === 'text' ? (
          <UntrustedText key={index} text={segment.text} />
        ) : (
          <div key={index} className="sy-tool__block">
            <p className="sy-tool__source">
              Untrusted output from {segment.server}/{segment.tool}
            </p>
            <UntrustedText text={segment.payload} />
          </div>
        ),
      )}
    </>
  );
}

/** One tool call in the transcript: a compact line that opens to its arguments and result. */
export function ToolRow({
  name,
  arguments: args,
  status,
  result,
  progress,
  cancelling,
  onCancel,
}: ToolRowProps) {
  const label = toolStatusLabel(status);
  return (
    <>
      <details className={`sy-tool sy-tool--${status}`}>
        <summary>
          <span className="sy-tool__icon" aria-hidden="true">
            {STATUS_ICONS[status]}
          </span>
          <span className="sy-tool__name">{name}</span>
          <span className="sy-tool__status">{label}</span>
        </summary>
        <div className="sy-tool__body">
          <p className="sy-tool__heading">Arguments</p>
          <JsonView value={args} label={`Arguments of ${name}`} />
          {result === null ? null : (
            <>
              <p className="sy-tool__heading">
                {status === 'ok' ? 'Result' : 'What the model was told'}
              </p>
              <ToolResult content={result} />
            </>
          )}
        </div>
      </details>
      {status === 'running' ? (
        <RunningCall name={name} progress={progress} cancelling={cancelling} onCancel={onCancel} />
      ) : null}
    </>
  );
}
