import { useId } from 'react';
import type { ConsentRequest, ServerSummary } from '../../../protocol/servers';
import { Button } from './Button';
import {
  commandLine,
  consentReasonText,
  fingerprintPrefix,
  launchChangeView,
  provenanceText,
} from './consent-view';
import { pageClient } from './page-client';
import { RemoteConsentFields } from './RemoteConsentFields';
import { UntrustedText } from './UntrustedText';
import { ValuesAsWritten } from './ValuesAsWritten';
import { useAsyncAction } from './use-async-action';
import { CARD_FOCUS_ATTRIBUTE } from './use-card-focus';
import { VisibleText } from './VisibleText';
import './common.css';

export interface ConsentCardProps {
  readonly consent: ConsentRequest;
  /** Called with the server's new summary once the host accepted the approval. */
  readonly onApproved?: (server: ServerSummary) => void;
  /** "Not now": hide the card (the server still does not run). */
  readonly onDismiss?: () => void;
  /** How to approve; by default the host's `trust/approve`, quoting the fingerprint shown. */
  readonly approve?: (server: string, fingerprint: string) => Promise<{ server: ServerSummary }>;
  /**
   * Why it waits, when the page knows better than the host (the popup's own revoke, which the
   * host reports as `edited-outside`): said once, in place of the summary and the reason line.
   */
  readonly why?: string;
}

function approveDefault(server: string, fingerprint: string): Promise<{ server: ServerSummary }> {
  return pageClient().host('trust/approve', { server, fingerprint });
}

/**
 * Launch consent for one server (design D6): the literal program, every argument in its own box,
 * the environment as written (`${VAR}` unexpanded), the folder, where the entry came from, the
 * fingerprint the approval quotes, and what changed since a previous approval. Nothing runs until
 * "Approve"; the host accepts it only if the fingerprint is still what would run. With `onDismiss`
 * (the side panel), Escape on the card is "Not now", and the card says so.
 */
export function ConsentCard({
  consent,
  onApproved,
  onDismiss,
  approve = approveDefault,
  why,
}: ConsentCardProps) {
  const headingId = useId();
  const { busy, error, run } = useAsyncAction();
  const onApprove = (): void => {
    run(
      () => approve(consent.server, consent.fingerprint),
      (result) => onApproved?.(result.server),
    );
  };
  return (
    <article
      className="sy-card sy-consent"
      aria-labelledby={headingId}
      onKeyDown={(event) => {
        if (
          event.key !== 'Escape' ||
          event.nativeEvent.isComposing ||
          onDismiss === undefined ||
          busy
        ) {
          return;
        }
        event.preventDefault();
        onDismiss();
      }}
    >
      <h3
        className="sy-card__title sy-card__focus"
        id={headingId}
        tabIndex={-1}
        {...{ [CARD_FOCUS_ATTRIBUTE]: '' }}
      >
        Start server “<VisibleText text={consent.server} edgeSpaces />
        ”?
      </h3>
      {why === undefined ? (
        <>
          <p className="sy-card__summary">
            <UntrustedText text={consent.summary} inline />
          </p>
          <p className="sy-card__reason">{consentReasonText(consent.reason)}</p>
        </>
      ) : (
        <p className="sy-card__reason">{why}</p>
      )}

      <dl className="sy-fields">
        {consent.remote === null ? (
          <LocalFields consent={consent} />
        ) : (
          <RemoteConsentFields remote={consent.remote} />
        )}

        {consent.toolPrefix === undefined || consent.toolPrefix === null ? null : (
          <>
            <dt>Tool names</dt>
            <dd>
              <code>
                <VisibleText text={consent.toolPrefix} edgeSpaces />
              </code>{' '}
              <span className="sy-hint">(what its tool names start with)</span>
            </dd>
          </>
        )}

        <dt>Comes from</dt>
        <dd>
          {provenanceText(consent)}
          {consent.sourceFile === null ? null : (
            <>
              {': '}
              <code>
                <VisibleText text={consent.sourceFile} edgeSpaces />
              </code>
            </>
          )}
        </dd>

        <dt>Fingerprint</dt>
        <dd>
          <code title={consent.fingerprint}>{fingerprintPrefix(consent.fingerprint)}…</code>
        </dd>
      </dl>

      {consent.changes.length === 0 ? null : (
        <section className="sy-changes" aria-label="Changes since your last approval">
          <h4>Changed since you last approved it</h4>
          <ul>
            {consent.changes.map((change, index) => {
              const view = launchChangeView(change, consent.remote !== null);
              return (
                <li key={index}>
                  <p className="sy-changes__label">{view.label}</p>
                  <p className="sy-changes__before">
                    <span className="sy-changes__tag">before</span>{' '}
                    <code>
                      <VisibleText text={view.before} whitespace edgeSpaces />
                    </code>
                  </p>
                  <p className="sy-changes__after">
                    <span className="sy-changes__tag">after</span>{' '}
                    <code>
                      <VisibleText text={view.after} whitespace edgeSpaces />
                    </code>
                  </p>
                </li>
              );
            })}
          </ul>
        </section>
      )}

      {consent.warnings.length === 0 ? null : (
        <ul className="sy-warnings">
          {consent.warnings.map((warning, index) => (
            <li key={index} className="sy-warning">
              <UntrustedText text={warning} inline />
            </li>
          ))}
        </ul>
      )}

      {consent.ignoredTrustClaims.length === 0 ? null : (
        <p className="sy-warning">
          The file claims this server is already trusted (
          <UntrustedText text={consent.ignoredTrustClaims.join(', ')} inline />
          ). Ignored: only you can approve a server.
        </p>
      )}

      {error === null ? null : (
        <p className="sy-error-text" role="alert">
          {error}
        </p>
      )}
      <div className="sy-card__actions">
        <Button
          variant="primary"
          // Names the server (issue 14): several cards may be open at once.
          aria-label={`Approve ${consent.server}`}
          onClick={onApprove}
          disabled={busy}
          aria-busy={busy}
        >
          Approve
        </Button>
        {onDismiss === undefined ? null : (
          <>
            <Button onClick={onDismiss} disabled={busy} aria-keyshortcuts="Escape">
              Not now
            </Button>
            <span className="sy-hint sy-card__keys">Esc: not now (the server stays off)</span>
          </>
        )}
      </div>
    </article>
  );
}

/** What a local server would run: the program, each argument, the environment, the folder. */
function LocalFields({ consent }: { readonly consent: ConsentRequest }) {
  return (
    <>
      <dt>Program</dt>
      <dd>
        <code className="sy-code-box">
          <VisibleText text={consent.executable} edgeSpaces />
        </code>
        {consent.command !== consent.executable ? (
          <span className="sy-field-note">
            {' '}
            written as{' '}
            <code>
              <VisibleText text={consent.command} edgeSpaces />
            </code>
          </span>
        ) : null}
      </dd>

      <dt>Arguments</dt>
      <dd>
        {consent.args.length === 0 ? (
          <span className="sy-muted">(none)</span>
        ) : (
          <ol className="sy-args" aria-label={`${consent.args.length} arguments`}>
            {consent.args.map((arg, index) => (
              <li key={index}>
                <code className="sy-code-box">
                  {arg === '' ? (
                    <span className="sy-muted">(empty)</span>
                  ) : (
                    <VisibleText text={arg} whitespace edgeSpaces />
                  )}
                </code>
              </li>
            ))}
          </ol>
        )}
      </dd>

      <dt>Command line</dt>
      <dd>
        <code className="sy-code-box sy-selectable">
          <VisibleText text={commandLine(consent.executable, consent.args)} whitespace />
        </code>
        <span className="sy-field-note"> for reading: Switchyard never runs a shell.</span>
      </dd>

      <dt>Environment</dt>
      <dd>
        <ValuesAsWritten pairs={consent.env} empty="(none set)" filledIn="at launch" />
      </dd>

      <dt>Working folder</dt>
      <dd>
        {consent.cwd === null ? (
          <span className="sy-muted">(not set: your home folder)</span>
        ) : (
          <code>
            <VisibleText text={consent.cwd} edgeSpaces />
          </code>
        )}
      </dd>
    </>
  );
}
