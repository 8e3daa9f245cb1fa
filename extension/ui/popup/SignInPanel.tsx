import { useEffect, useMemo, useState } from 'react';
import type { SignInStatus } from '../../../protocol/auth';
import type { ServerSummary } from '../../../protocol/servers';
import { Button } from '../common/Button';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';
import { VisibleText } from '../common/VisibleText';
import { withServer } from './server-view';
import { signInView } from './sign-in-view';
import { usePopupActions } from './status-message';

/**
 * Sign in / Signed in as … / Sign out for a remote server (issue 11, decision 0018). Sign in asks
 * the worker, which runs the host's flow through `identity.launchWebAuthFlow`: the browser's own
 * sign-in window, so the popup may close meanwhile and the sign-in still finishes. No token
 * reaches this page; the host answers with who and which scopes.
 */
export function SignInPanel({
  server,
  onChanged,
}: {
  readonly server: ServerSummary;
  readonly onChanged: () => void;
}) {
  const client = useMemo(() => pageClient(), []);
  const [status, setStatus] = useState<SignInStatus | null | undefined>(undefined);
  const [busy, setBusy] = useState<'sign-in' | 'sign-out' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const actions = usePopupActions();
  const remote = server.remote !== null;
  const stateKey = `${server.status.state}:${server.status.state === 'failed' ? server.status.reason : ''}`;

  useEffect(() => {
    if (!remote) return;
    let live = true;
    client
      .host('auth/status', { server: server.name })
      .then((answer) => {
        if (live) setStatus(answer.status);
      })
      .catch(() => {
        if (live) setStatus(null);
      });
    return () => {
      live = false;
    };
  }, [client, remote, server.name, stateKey]);

  const view = signInView(server, status, Date.now());
  if (view.kind === 'none' && error === null) return null;

  const act = (what: 'sign-in' | 'sign-out') => {
    actions.begin();
    setBusy(what);
    setError(null);
    const call =
      what === 'sign-in'
        ? client.request('auth/signIn', { server: server.name }).then((r) => r.status)
        : client.host('auth/signOut', { server: server.name }).then(() => null);
    call
      .then((next) => {
        setStatus(next);
        onChanged();
      })
      .catch((e: unknown) => {
        setError(errorMessage(e));
      })
      .finally(() => {
        setBusy(null);
      });
  };

  return (
    <div className="pp-sign-in" role="group" aria-label={`Sign-in for ${server.name}`}>
      {view.kind === 'sign-in' && (
        <>
          <span>{view.prompt}</span>
          <Button
            size="small"
            variant="primary"
            disabled={busy !== null}
            aria-busy={busy === 'sign-in'}
            aria-label={withServer('Sign in', server.name, 'to')}
            onClick={() => {
              act('sign-in');
            }}
          >
            Sign in
          </Button>
        </>
      )}
      {view.kind === 'signed-in' && (
        <>
          <span>
            <VisibleText text={view.label} />
            {view.expiry !== null && <span className="pp-muted"> · {view.expiry}</span>}
          </span>
          <Button
            size="small"
            variant="quiet"
            title="Revoke the tokens at the authorization server and delete them from this machine"
            disabled={busy !== null}
            aria-busy={busy === 'sign-out'}
            aria-label={withServer('Sign out', server.name, 'of')}
            onClick={() => {
              act('sign-out');
            }}
          >
            Sign out
          </Button>
        </>
      )}
      {error !== null && (
        <p role="alert" className="sy-error-text">
          {error}
        </p>
      )}
    </div>
  );
}
