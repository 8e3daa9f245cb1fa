import { useId } from 'react';
import type { ApprovalDecision } from '../../messaging/approvals';
import type { PendingApproval } from '../../messaging/approvals';
import type { ChatMessage } from '../../messaging/conversation';
import type { ToolChange } from '../../../protocol/tools';
import { Button } from '../common/Button';
import { JsonView } from '../common/JsonView';
import { UntrustedText } from '../common/UntrustedText';
import { useAsyncAction } from '../common/use-async-action';
import { VisibleText } from '../common/VisibleText';
import { approvalView, expiryText } from './approval-view';

export interface ApprovalCardProps {
  readonly pending: PendingApproval;
  /** The conversation so far: untrusted content in it is a warning on the card. */
  readonly messages: readonly ChatMessage[];
  readonly onResolve: (decision: ApprovalDecision) => Promise<void>;
  readonly now?: number;
}

const CHANGE_FIELD_LABELS: Readonly<Record<ToolChange['field'], string>> = {
  title: 'Title',
  description: 'Description',
  inputSchema: 'Input schema',
  annotations: 'Annotations',
};

/**
 * One tool call waiting for the user (design D8): who asks to run what, the exact arguments, every
 * reason to look twice, and three answers. "Always allow this tool" writes the allow-list through
 * the host; it never covers other tools, and a destructive tool still asks.
 */
export function ApprovalCard({
  pending,
  messages,
  onResolve,
  now = Date.now(),
}: ApprovalCardProps) {
  const headingId = useId();
  const { busy, error, run } = useAsyncAction();
  const view = approvalView(pending, messages);
  const decide = (decision: ApprovalDecision): void => {
    run(() => onResolve(decision));
  };
  return (
    <article
      className={`sy-card sy-approval${view.warnings.some((w) => w.tone === 'danger') ? ' sy-approval--danger' : ''}`}
      aria-labelledby={headingId}
    >
      <h3 className="sy-card__title" id={headingId}>
        Allow <code>{view.exposedName}</code>?
      </h3>
      {pending.fromApp === undefined ? null : (
        <p className="sy-approval__from">
          From the <VisibleText text={pending.fromApp} /> app, not the model: the app shown in the
          chat asks for this call.
        </p>
      )}
      <dl className="sy-fields">
        {view.server === null ? (
          <>
            <dt>Tool</dt>
            <dd>
              Switchyard’s browser tool <code>{view.tool}</code>
              {view.description === null ? null : (
                <span className="sy-field-note"> — {view.description}</span>
              )}
            </dd>
          </>
        ) : (
          <>
            <dt>Server</dt>
            <dd>
              <code>
                <VisibleText text={view.server} edgeSpaces />
              </code>
            </dd>
            <dt>Tool</dt>
            <dd>
              <code>
                <VisibleText text={view.tool} edgeSpaces />
              </code>
              <span className="sy-field-note"> (the server’s name)</span>
            </dd>
            <dt>Called as</dt>
            <dd>
              <code>{view.exposedName}</code>
            </dd>
          </>
        )}
      </dl>

      {view.warnings.length === 0 ? null : (
        <ul className="sy-warnings" aria-label="Warnings">
          {view.warnings.map((warning, index) => (
            <li
              key={index}
              className={warning.tone === 'danger' ? 'sy-warning sy-warning--danger' : 'sy-warning'}
            >
              <UntrustedText text={warning.text} inline />
            </li>
          ))}
        </ul>
      )}

      {view.changes.length === 0 ? null : (
        <section className="sy-changes" aria-label="How the tool changed since you approved it">
          <h4>Changed since you approved it</h4>
          <ul>
            {view.changes.map((change, index) => (
              <li key={index}>
                <p className="sy-changes__label">{CHANGE_FIELD_LABELS[change.field]}</p>
                <p className="sy-changes__tag">before</p>
                <UntrustedText text={change.before} maxChars={1500} />
                <p className="sy-changes__tag">after</p>
                <UntrustedText text={change.after} maxChars={1500} />
              </li>
            ))}
          </ul>
        </section>
      )}

      <div>
        <p className="sy-tool__heading">Arguments</p>
        <JsonView value={view.arguments} label={`Arguments for ${view.exposedName}`} />
      </div>

      {view.annotations.length === 0 ? null : (
        <details className="sy-annotations">
          <summary>The server’s claims about this tool (not verified)</summary>
          <dl className="sy-fields">
            {view.annotations.map((row) => (
              <div key={row.label} className="sy-fields__row">
                <dt>{row.label}</dt>
                <dd>
                  <UntrustedText text={row.value} inline />
                </dd>
              </div>
            ))}
          </dl>
        </details>
      )}

      {error === null ? null : (
        <p className="sy-error-text" role="alert">
          {error}
        </p>
      )}
      <div className="sy-card__actions">
        <Button
          variant="primary"
          disabled={busy}
          onClick={() => {
            decide('allow-once');
          }}
        >
          Allow once
        </Button>
        <Button
          disabled={busy}
          onClick={() => {
            decide('always');
          }}
        >
          Always allow this tool
        </Button>
        <Button
          variant="danger"
          disabled={busy}
          onClick={() => {
            decide('deny');
          }}
        >
          Deny
        </Button>
      </div>
      {view.expiresAt === null ? null : (
        <p className="sy-field-note">This request {expiryText(view.expiresAt, now)}.</p>
      )}
    </article>
  );
}
