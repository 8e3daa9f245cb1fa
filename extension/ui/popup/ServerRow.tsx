import { browser } from 'wxt/browser';
import { useEffect, useId, useMemo, useState } from 'react';
import type { ServerSummary } from '../../../protocol/servers';
import { Button } from '../common/Button';
import { ConsentCard } from '../common/ConsentCard';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';
import { UntrustedText } from '../common/UntrustedText';
import { VisibleText } from '../common/VisibleText';
import { ServerLogs } from './ServerLogs';
import { ServerTools } from './ServerTools';
import { SignInPanel } from './SignInPanel';
import { statusApplies, usePopupActions, type StatusMessage } from './status-message';
import {
  ACTION_LABELS,
  actionButtonName,
  appsSwitch,
  formatTokens,
  formatToolCount,
  serverRow,
  withServer,
  type LaunchView,
  type ServerAction,
} from './server-view';

const ACTION_TITLES: Readonly<Record<Exclude<ServerAction, 'approve'>, string>> = {
  start: 'Start this server',
  stop: 'Stop this server and every process it started',
  restart: 'Stop, then start this server',
  revoke: 'Withdraw launch trust: the server asks for approval before its next start',
  forget: 'Forget the old approval and its tool pins; the new command still needs approval',
  remove: 'Remove this server from your config.json',
};

/**
 * One configured server (issues 5 and 11): state, provenance, the literal command line (or a
 * remote server's origin), handshake time, tool count and token cost; its actions; and, expanded, its tools and logs. A server waiting at
 * the launch gate shows its consent card, whose Approve is the only way to start it.
 */
export function ServerRow({
  server,
  profile,
  onChanged,
}: {
  readonly server: ServerSummary;
  /** The active tab's profile, for the tool listing. */
  readonly profile: { readonly id: string; readonly name: string } | null;
  /** Called after an action went through, to re-read the list. */
  readonly onChanged: () => void;
}) {
  const client = useMemo(() => pageClient(), []);
  // What this popup's own revoke left waiting: the host reports it as edited outside Switchyard.
  const [revokedFingerprint, setRevokedFingerprint] = useState<string | null>(null);
  const row = serverRow(server, revokedFingerprint);
  const detailsId = useId();
  const [expanded, setExpanded] = useState(false);
  const [showLogs, setShowLogs] = useState(false);
  const [busy, setBusy] = useState<ServerAction | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const actions = usePopupActions();
  const [failure, setFailure] = useState<StatusMessage | null>(null);
  // Stands until the next action anywhere in the popup (status-message.ts).
  const error = statusApplies(failure, { action: actions.current, servers: null })
    ? failure.text
    : null;
  const fail = (action: number, e: unknown) => {
    setFailure({ text: errorMessage(e), error: true, action, server: server.name });
  };
  // The value the user switched apps to, until servers/list reports it.
  const [appsWanted, setAppsWanted] = useState<boolean | null>(null);
  const [appsSending, setAppsSending] = useState(false);
  const apps = appsSwitch(server, appsWanted, appsSending);
  useEffect(() => {
    if (!appsSending && appsWanted !== null && appsWanted === server.apps) setAppsWanted(null);
  }, [appsSending, appsWanted, server.apps]);
  const appsHintId = useId();

  const setApps = (enabled: boolean) => {
    const action = actions.begin();
    setAppsWanted(enabled);
    setAppsSending(true);
    client
      .host('servers/setApps', { server: server.name, enabled })
      .then(onChanged)
      .catch((e: unknown) => {
        setAppsWanted(null);
        fail(action, e);
      })
      .finally(() => {
        setAppsSending(false);
      });
  };

  const run = (action: Exclude<ServerAction, 'approve'>) => {
    const params = { server: server.name };
    const call = (): Promise<unknown> => {
      switch (action) {
        case 'start':
          return client.host('servers/start', params);
        case 'stop':
          return client.host('servers/stop', params);
        case 'restart':
          return client.host('servers/restart', params);
        case 'revoke':
          return client.host('trust/revoke', params).then(({ servers }) => {
            const status = servers.find((s) => s.name === server.name)?.status;
            if (status?.state === 'needs-approval') {
              setRevokedFingerprint(status.consent.fingerprint);
            }
          });
        case 'forget':
          return client.host('trust/forget', params);
        case 'remove':
          return client.host('servers/remove', params);
      }
    };
    const begun = actions.begin();
    setBusy(action);
    setConfirmRemove(false);
    call()
      .then(onChanged)
      .catch((e: unknown) => {
        fail(begun, e);
      })
      .finally(() => {
        setBusy(null);
      });
  };

  const buttons = row.actions.filter(
    (action): action is Exclude<ServerAction, 'approve'> => action !== 'approve',
  );
  const running = server.status.state === 'running';
  const facts = [
    formatToolCount(row.toolCount),
    formatTokens(row.tokens),
    ...(row.handshake === null ? [] : [row.handshake]),
  ];

  return (
    <li className={`pp-server pp-tone-${row.state.tone}`}>
      <div className="pp-server-head">
        <button
          type="button"
          className="pp-disclosure"
          aria-expanded={expanded}
          aria-controls={detailsId}
          onClick={() => {
            setExpanded(!expanded);
          }}
        >
          <span aria-hidden="true" className="pp-caret">
            {expanded ? '▾' : '▸'}
          </span>
          <span className="pp-server-name">
            <VisibleText text={row.name} edgeSpaces />
          </span>
        </button>
        <span className={`pp-state pp-state-${row.state.tone}`}>{row.state.label}</span>
      </div>
      <div className="pp-server-meta pp-muted">
        <span>
          <VisibleText text={row.provenance} />
        </span>
        {row.disabled && <span>disabled in config</span>}
        <span>{facts.join(' · ')}</span>
      </div>
      {row.launch.kind === 'local' ? (
        <code className="pp-command" title={row.launch.resolvedCommand ?? 'not found on PATH'}>
          <VisibleText text={row.launch.commandLine} />
        </code>
      ) : (
        <code className="pp-command" title={row.launch.url}>
          <VisibleText text={row.launch.origin} edgeSpaces />
        </code>
      )}
      {row.state.detail !== null && server.status.state !== 'needs-approval' && (
        <p className="pp-server-detail">
          <UntrustedText text={row.state.detail} inline />
        </p>
      )}
      {row.revokedHere && (
        <p className="pp-server-detail">
          You revoked its launch trust. Approve it to start it again.
        </p>
      )}
      {server.status.state === 'needs-approval' && (
        <ConsentCard
          consent={server.status.consent}
          onApproved={() => {
            // An approval is an action too: the lines about earlier ones no longer apply.
            actions.begin();
            onChanged();
          }}
        />
      )}
      {server.remote !== null && <SignInPanel server={server} onChanged={onChanged} />}
      {confirmRemove ? (
        <div className="pp-confirm" role="group" aria-label={`Remove ${row.name}?`}>
          <span>Remove {row.name} from your configuration?</span>
          <Button
            variant="danger"
            size="small"
            aria-label={actionButtonName('remove', server.name)}
            onClick={() => {
              run('remove');
            }}
          >
            Remove
          </Button>
          <Button
            size="small"
            aria-label={withServer('Cancel removing', server.name)}
            onClick={() => {
              setConfirmRemove(false);
            }}
          >
            Cancel
          </Button>
        </div>
      ) : (
        buttons.length > 0 && (
          <div className="pp-actions">
            {buttons.map((action) => (
              <Button
                key={action}
                size="small"
                variant={action === 'remove' ? 'quiet' : 'secondary'}
                title={ACTION_TITLES[action]}
                aria-label={actionButtonName(action, server.name)}
                disabled={busy !== null}
                aria-busy={busy === action}
                onClick={() => {
                  if (action === 'remove') setConfirmRemove(true);
                  else run(action);
                }}
              >
                {ACTION_LABELS[action]}
              </Button>
            ))}
          </div>
        )
      )}
      {error !== null && (
        <p role="alert" className="sy-error-text">
          {error}
        </p>
      )}
      <div id={detailsId} hidden={!expanded} className="pp-server-details">
        {expanded && (
          <>
            <LaunchFacts launch={row.launch} />
            <div className="pp-apps">
              <label className="pp-switch" title="A running server reconnects to be told">
                <input
                  type="checkbox"
                  role="switch"
                  checked={apps.checked}
                  aria-describedby={appsHintId}
                  aria-busy={apps.busy}
                  // Not `disabled`: that would drop the keyboard focus to the page.
                  aria-disabled={apps.busy}
                  onChange={(event) => {
                    if (!apps.busy) setApps(event.currentTarget.checked);
                  }}
                />
                <span>
                  MCP Apps<span className="sy-sr-only"> for {server.name}</span>
                </span>
              </label>
              <p id={appsHintId} className="pp-muted">
                {apps.hint}
              </p>
            </div>
            <ServerTools server={server.name} running={running} profile={profile} />
            <Button
              size="small"
              aria-label={withServer('Logs', server.name, 'of')}
              aria-expanded={showLogs}
              onClick={() => {
                setShowLogs(!showLogs);
              }}
            >
              Logs
            </Button>
            {showLogs && <ServerLogs server={server.name} />}
          </>
        )}
      </div>
    </li>
  );
}

/** The expanded row's facts: the program, folder and env names, or the URL, transport and header
 * names (the host reports no header values, and the row would show none). */
function LaunchFacts({ launch }: { readonly launch: LaunchView }) {
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
