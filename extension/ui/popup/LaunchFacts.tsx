import { browser } from 'wxt/browser';
import { VisibleText } from '../common/VisibleText';
import type { LaunchView } from './server-view';

/** The expanded row's facts: the program, folder and env names, or the URL, transport and header
 * names (the host reports no header values, and the row would show none). */
export function LaunchFacts({ launch }: { readonly launch: LaunchView }) {
  if (launch.kind === 'remote') {
    return (
      <dl className="pp-facts">
        <dt>URL</dt>
        <dd>
          <code>
            <VisibleText text={launch.url} edgeSpaces />
          </code>
        </dd>
        <dt>Transport</dt>
        <dd>{launch.transport}</dd>
        {launch.headerNames.length > 0 && (
          <>
            <dt>Headers</dt>
            <dd>
              <VisibleText text={launch.headerNames.join(', ')} />
            </dd>
          </>
        )}
        {launch.oauthClientId !== undefined && (
          <>
            <dt>OAuth client</dt>
            <dd>
              <code>
                <VisibleText text={launch.oauthClientId} edgeSpaces />
              </code>
            </dd>
            {/* The browser's redirect for this extension: what the OAuth app must list. */}
            <dt>Redirect URI</dt>
            <dd>
              <code className="sy-selectable">{browser.identity.getRedirectURL()}</code>
            </dd>
          </>
        )}
      </dl>
    );
  }
  return (
    <dl className="pp-facts">
      <dt>Program</dt>
      <dd>
        {launch.resolvedCommand === null ? (
          'not found on PATH'
        ) : (
          <code>
            <VisibleText text={launch.resolvedCommand} />
          </code>
        )}
      </dd>
      {launch.cwd !== null && (
        <>
          <dt>Folder</dt>
          <dd>
            <code>
              <VisibleText text={launch.cwd} edgeSpaces />
            </code>
          </dd>
        </>
      )}
      {launch.envKeys.length > 0 && (
        <>
          <dt>Environment</dt>
          <dd>
            <VisibleText text={launch.envKeys.join(', ')} />
          </dd>
        </>
      )}
    </dl>
  );
}
