import { useId, useRef, type RefObject } from 'react';
import type { ConnectionStateName } from '../../messaging/connection';
import { ConsentCard } from '../common/ConsentCard';
import { consentKey } from '../common/consent-view';
import { useCardFocus } from '../common/use-card-focus';
import { consentHeading } from './consents';
import { useConsents } from './use-consents';

export interface ConsentSectionProps {
  readonly connection: ConnectionStateName;
  /** The message box: focus returns there once the last card is answered (issue 14). */
  readonly composer: RefObject<HTMLElement | null>;
}

/**
 * Servers that wait for launch approval: a compact, open section with one card each. A card
 * that shows up does not take focus (it waits for no run, and appears as the panel opens); once
 * the focused one is answered, focus moves to the next card or back to the message box.
 */
export function ConsentSection({ connection, composer }: ConsentSectionProps) {
  const headingId = useId();
  const region = useRef<HTMLElement>(null);
  const { consents, error, dismiss, refresh } = useConsents(connection);
  useCardFocus(consents.map(consentKey), region, composer, false);
  if (consents.length === 0) {
    return error === null || connection !== 'connected' ? null : (
      <p className="sy-error-text">Could not list servers: {error}</p>
    );
  }
  return (
    <section ref={region} className="sy-consents" aria-labelledby={headingId}>
      <details open>
        <summary>
          <h2 id={headingId} className="sy-consents__heading">
            {consentHeading(consents.length)}
          </h2>
        </summary>
        <div className="sy-consents__cards">
          {consents.map((consent) => (
            <div key={consentKey(consent)} data-card-id={consentKey(consent)}>
              <ConsentCard
                consent={consent}
                onApproved={() => {
                  void refresh();
                }}
                onDismiss={() => {
                  dismiss(consent);
                }}
              />
            </div>
          ))}
        </div>
      </details>
    </section>
  );
}
