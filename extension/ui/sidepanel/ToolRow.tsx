import { JsonView } from '../common/JsonView';
import { UntrustedText } from '../common/UntrustedText';
import { toolStatusLabel, type ToolRowStatus } from './transcript';
import { splitUntrustedBlocks } from './untrusted-blocks';

export interface ToolRowProps {
  readonly name: string;
  readonly arguments: unknown;
  readonly status: ToolRowStatus;
  readonly result: string | null;
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
export function ToolRow({ name, arguments: args, status, result }: ToolRowProps) {
  const label = toolStatusLabel(status);
  return (
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
  );
}
