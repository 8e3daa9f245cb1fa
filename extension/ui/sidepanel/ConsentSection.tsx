import { useId } from 'react';
import type { ConnectionStateName } from '../../messaging/connection';
import { ConsentCard } from '../common/ConsentCard';
import { consentKey } from '../common/consent-view';
import { consentHeading } from './consents';
import { useConsents } from './use-consents';

/** Servers that wait for launch approval: a compact, open section with one card each. */
export function ConsentSection({ connection }: { readonly connection: ConnectionStateName }) {
  const headingId = useId();
  const { consents, error, dismiss, refresh } = useConsents(connection);
  if (consents.length === 0) {
    return error === null || connection !== 'connected' ? null : (
      <p className="sy-error-text">Could not list servers: {error}</p>
    );
  }
  return (
    <section className="sy-consents" aria-labelledby={headingId}>
      <details open>
        <summary>
          <h2 id={headingId} className="sy-consents__heading">
            {consentHeading(consents.length)}
          </h2>
        </summary>
        <div className="sy-consents__cards">
          {consents.map((consent) => (
            <ConsentCard
              key={consentKey(consent)}
              consent={consent}
              onApproved={() => {
                void refresh();
              }}
              onDismiss={() => {
                dismiss(consent);
              }}
            />
          ))}
        </div>
      </details>
    </section>
  );
}
