import { useCallback, useMemo, useRef, useState } from 'react';
import { browser } from 'wxt/browser';
import { Button } from '../common/Button';
import { ConnectionBanner } from '../common/ConnectionBanner';
import { RuntimeNotice } from '../common/RuntimeNotice';
import { AddServerForm } from './AddServerForm';
import { BudgetPanel } from './BudgetPanel';
import { OpenChatButton } from './OpenChatButton';
import { ServerRow } from './ServerRow';
import { sortServers } from './server-view';
import { PopupActionsContext, type PopupActions } from './status-message';
import { useServers, useSession } from './use-host-data';

/**
 * The popup: the server manager (issue 5). One row per configured server, from the same host data
 * the agent uses; the chat opens in the side panel from here.
 */
export function PopupApp() {
  const { connection, profile } = useSession();
  const servers = useServers();
  const reload = () => void servers.reload();
  const list = servers.data === null ? null : sortServers(servers.data);
  const activeProfile = profile === null ? null : { id: profile.id, name: profile.name };
  // Counts the user's actions, so a status line can tell it answers an earlier one.
  const count = useRef(0);
  const [current, setCurrent] = useState(0);
  const begin = useCallback(() => {
    count.current += 1;
    setCurrent(count.current);
    return count.current;
  }, []);
  const actions: PopupActions = useMemo(() => ({ current, begin }), [current, begin]);

  return (
    <PopupActionsContext.Provider value={actions}>
      <div className="pp-popup">
        <header className="pp-header">
          <h1>Switchyard</h1>
          <OpenChatButton />
        </header>
        {connection !== null && <ConnectionBanner state={connection} />}
        {connection !== null && <RuntimeNotice state={connection} hideable />}
        {activeProfile !== null && <BudgetPanel profile={activeProfile} />}
        <section className="pp-servers">
          <h2 id="servers-heading">
            Servers
            {activeProfile !== null && (
              <span className="pp-muted pp-profile"> · profile {activeProfile.name}</span>
            )}
          </h2>
          {servers.error !== null && <p className="sy-error-text">{servers.error}</p>}
          {list === null ? (
            servers.error === null && <p className="pp-muted">Loading servers…</p>
          ) : list.length === 0 ? (
            <p className="pp-muted">
              No servers yet. Add one below, or import them from other apps in the settings.
            </p>
          ) : (
            <ul className="pp-server-list" aria-label="Servers">
              {list.map((server) => (
                <ServerRow
                  key={server.name}
                  server={server}
                  profile={activeProfile}
                  onChanged={reload}
                />
              ))}
            </ul>
          )}
        </section>
        <AddServerForm
          existingNames={list === null ? null : list.map((s) => s.name)}
          onAdded={reload}
        />
        <footer className="pp-footer">
          <Button
            size="small"
            variant="quiet"
            onClick={() => {
              // The options page, opened at its activity view.
              void browser.tabs.create({
                url: `${browser.runtime.getURL('/options.html')}#activity`,
              });
            }}
          >
            Activity
          </Button>
          <Button
            size="small"
            variant="quiet"
            onClick={() => {
              void browser.runtime.openOptionsPage();
            }}
          >
            Settings: provider, profiles, import
          </Button>
        </footer>
      </div>
    </PopupActionsContext.Provider>
  );
}
