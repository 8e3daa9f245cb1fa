import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ServerSummary } from '../../../protocol/servers';
import { Button } from '../common/Button';
import { ConsentCard } from '../common/ConsentCard';
import { errorMessage } from '../common/errors';
import { pageClient } from '../common/page-client';
import { UntrustedText } from '../common/UntrustedText';
import { VisibleText } from '../common/VisibleText';
import { EditServerForm } from './EditServerForm';
import { LaunchFacts } from './LaunchFacts';
import { ServerLogs } from './ServerLogs';
import { ServerTools } from './ServerTools';
import { SignInPanel } from './SignInPanel';
import { useActionFocus } from './use-action-focus';
import { statusApplies, usePopupActions, type StatusMessage } from './status-message';
import {
  ACTION_LABELS,
  actionButtonName,
  appsSwitch,
  formatTokens,
  formatToolCount,
  serverRow,
  withServer,
  type ServerAction,
} from './server-view';
import { canEdit, confirmQuestion, crashLine, type ConfirmedAction } from './server-notes';

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
  // Revoke and Remove ask first, in plain words (issue 14: Revoke acted with no confirmation).
  const [confirming, setConfirming] = useState<ConfirmedAction | null>(null);
  const rowRef = useRef<HTMLLIElement>(null);
  const refocus = useActionFocus(rowRef, '.pp-actions', busy === null);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState<{ readonly text: string; readonly action: number } | null>(
    null,
  );
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
    setConfirming(null);
    refocus(actionButtonName(action, server.name));
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
  const crashed = crashLine(server);
  const savedText = saved !== null && saved.action === actions.current ? saved.text : null;
  const facts = [
    formatToolCount(row.toolCount),
    formatTokens(row.tokens),
    ...(row.handshake === null ? [] : [row.handshake]),
  ];

  return (
    <li ref={rowRef} className={`pp-server pp-tone-${row.state.tone}`}>
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
      {crashed !== null && (
        <p className="pp-server-detail pp-crash-line">
          <UntrustedText text={crashed} inline />
        </p>
      )}
      {savedText !== null && (
        <p role="status" className="pp-server-detail">
          {savedText}
        </p>
      )}
      {server.status.state === 'needs-approval' && (
        <ConsentCard
          consent={server.status.consent}
          // Said once, on the card: the row's badge already says it needs approval.
          {...(row.revokedHere
            ? { why: 'You revoked its launch trust. Nothing runs until you approve it again.' }
            : {})}
          onApproved={() => {
            // An approval is an action too: the lines about earlier ones no longer apply.
            actions.begin();
            onChanged();
          }}
        />
      )}
      {server.remote !== null && <SignInPanel server={server} onChanged={onChanged} />}
      {confirming !== null ? (
        <div
          className="pp-confirm"
          role="group"
          aria-label={`${ACTION_LABELS[confirming]} ${row.name}?`}
        >
          <span>{confirmQuestion(confirming, server)}</span>
          <Button
            variant="danger"
            size="small"
            aria-label={actionButtonName(confirming, server.name)}
            autoFocus
            onClick={() => {
              run(confirming);
            }}
          >
            {ACTION_LABELS[confirming]}
          </Button>
          <Button
            size="small"
            aria-label={withServer(
              confirming === 'remove' ? 'Cancel removing' : 'Cancel revoking',
              server.name,
            )}
            onClick={() => {
              refocus(actionButtonName(confirming, server.name));
              setConfirming(null);
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
                  if (action === 'remove' || action === 'revoke') setConfirming(action);
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
            {canEdit(server) &&
              (editing ? (
                <EditServerForm
                  server={server}
                  onDone={(after, begun) => {
                    setEditing(false);
                    if (after === null || begun === undefined) return;
                    const waits = after.status.state === 'needs-approval';
                    setSaved({
                      text: waits
                        ? 'Saved. The changed launch waits for your approval on the card above.'
                        : 'Saved; nothing that runs changed.',
                      action: begun,
                    });
                    onChanged();
                  }}
                />
              ) : (
                <Button
                  size="small"
                  aria-label={withServer('Edit', server.name)}
                  onClick={() => {
                    setEditing(true);
                  }}
                >
                  Edit
                </Button>
              ))}
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
