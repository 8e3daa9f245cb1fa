import type { RemoteConsent } from '../../../protocol/servers';
import { TRANSPORT_TEXT } from './remote-transport';
import { ValuesAsWritten } from './ValuesAsWritten';
import { VisibleText } from './VisibleText';

/**
 * What a remote server's consent card shows in place of a program (issue 11): the address the
 * host would contact, its origin in large type (where the arguments of every allowed call, and
 * any token in the headers, would go), the transport, each header with its value as written, and
 * the pre-registered OAuth client that signs in, if the entry names one.
 */
export function RemoteConsentFields({ remote }: { readonly remote: RemoteConsent }) {
  return (
    <>
      <dt>Connects to</dt>
      <dd>
        <code className="sy-code-box sy-selectable">
          <VisibleText text={remote.url} edgeSpaces />
        </code>
      </dd>

      <dt>Sends data to</dt>
      <dd>
        <strong className="sy-origin">
          <VisibleText text={remote.origin} edgeSpaces />
        </strong>
      </dd>

      <dt>Transport</dt>
      <dd>{TRANSPORT_TEXT[remote.transport]}</dd>

      <dt>Headers</dt>
      <dd>
        <ValuesAsWritten pairs={remote.headers} empty="(none)" filledIn="when connecting" />
      </dd>

      {remote.oauthClient === undefined ? null : (
        <>
          <dt>Signs in as OAuth client</dt>
          <dd>
            <code className="sy-code-box sy-selectable">
              <VisibleText text={remote.oauthClient.clientId} edgeSpaces />
            </code>
            {remote.oauthClient.clientSecret === null ? (
              ' (no secret)'
            ) : (
              <>
                {' with the secret in '}
                <code>
                  <VisibleText text={remote.oauthClient.clientSecret} />
                </code>
              </>
            )}
          </dd>
          {remote.oauthClient.machineGrant === undefined ? null : (
            <>
              <dt>Gets tokens with no sign-in</dt>
              <dd>
                <code className="sy-code-box sy-selectable">
                  <VisibleText text={remote.oauthClient.machineGrant} />
                </code>
              </dd>
            </>
          )}
        </>
      )}
    </>
  );
}
