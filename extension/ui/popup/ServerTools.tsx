import { useCallback, useId, useMemo, useState } from 'react';
import type { ResultOf } from '../../../protocol/methods';
import type { PageClient } from '../../messaging/page-client';
import type { PageEvent } from '../../messaging/ui-protocol';
import { exactCount } from '../common/format';
import { pageClient } from '../common/page-client';
import { Button } from '../common/Button';
import { UntrustedText } from '../common/UntrustedText';
import { useAsyncAction } from '../common/use-async-action';
import { VisibleText } from '../common/VisibleText';
import { formatTokens } from './server-view';
import {
  bulkButtons,
  filterTools,
  isPolicyChoice,
  POLICY_CHOICES,
  policyParam,
  toolRows,
  type BulkButton,
  type ToolRowView,
} from './tool-view';
import { useLive } from './use-host-data';
import { usePopupActions } from './status-message';

/** Description characters shown before "Show all". */
const DESCRIPTION_CHARS = 2000;

/**
 * One server's tools as the host lists them, denied ones included (the model never sees those),
 * with the policy of each editable. Names and descriptions are the server's text: rendered as
 * text only, hidden characters shown.
 */
export function ServerTools({
  server,
  running,
  profile,
}: {
  readonly server: string;
  readonly running: boolean;
  /** The active tab's profile: the tools are listed as the agent would get them there. */
  readonly profile: { readonly id: string; readonly name: string } | null;
}) {
  const profileId = profile?.id;
  const load = useCallback(
    (client: PageClient): Promise<ResultOf<'tools/list'>> =>
      client.host('tools/list', {
        server,
        includeDenied: true,
        ...(profileId === undefined ? {} : { profile: profileId }),
      }),
    [server, profileId],
  );
  const refreshOn = useCallback(
    (event: PageEvent) => event.type === 'host' && event.server === server,
    [server],
  );
  const { data, error, reload } = useLive(load, refreshOn);
  const rows = useMemo(() => (data === null ? [] : toolRows(data.tools)), [data]);
  const [query, setQuery] = useState('');
  const shown = useMemo(() => filterTools(rows, query), [rows, query]);
  const bulk = useMemo(() => bulkButtons(shown), [shown]);
  const client = useMemo(() => pageClient(), []);
  const actions = usePopupActions();
  const bulkRun = useAsyncAction();
  const [done, setDone] = useState<{ readonly text: string; readonly action: number } | null>(null);
  const filterId = useId();
  const countId = useId();

  const applyBulk = (button: BulkButton) => {
    const begun = actions.begin();
    bulkRun.run(
      () => client.host('policy/setMany', { rules: [...button.rules] }),
      () => {
        const n = button.rules.length;
        const what = button.action === 'allow-read-only' ? 'Allowed' : 'Set to ask:';
        setDone({ text: `${what} ${n} ${n === 1 ? 'tool' : 'tools'}.`, action: begun });
        void reload();
      },
    );
  };

  if (error !== null) return <p className="sy-error-text">{error}</p>;
  if (data === null) return <p className="pp-muted">Loading tools…</p>;
  const where = profile === null ? '' : ` in profile ${profile.name}`;
  if (rows.length === 0) {
    return (
      <p className="pp-muted">
        {running
          ? `No tools of this server are available${where}.`
          : 'Start the server to list its tools.'}
      </p>
    );
  }
  const doneText = done !== null && done.action === actions.current ? done.text : null;
  return (
    <>
      <div className="pp-tools-filter">
        <label htmlFor={filterId}>Filter tools</label>
        <input
          id={filterId}
          type="search"
          value={query}
          aria-label={`Filter tools of ${server}`}
          aria-describedby={countId}
          placeholder="name or description"
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => {
            setQuery(event.target.value);
          }}
        />
      </div>
      <p id={countId} className="pp-muted" aria-live="polite">
        {shown.length === rows.length
          ? `${rows.length} ${rows.length === 1 ? 'tool' : 'tools'}${where}, largest first.`
          : `${shown.length} of ${rows.length} tools${where} match.`}
      </p>
      <div
        className="pp-bulk"
        role="group"
        aria-label={`Set the policy of the tools shown of ${server}`}
      >
        {bulk.map((button) => (
          <Button
            key={button.action}
            size="small"
            // Not `disabled`: that would drop the keyboard focus to the page after a click.
            aria-disabled={button.rules.length === 0 || bulkRun.busy}
            aria-busy={bulkRun.busy}
            onClick={() => {
              if (button.rules.length > 0 && !bulkRun.busy) applyBulk(button);
            }}
          >
            {button.label}
          </Button>
        ))}
      </div>
      {bulkRun.error !== null && (
        <p role="alert" className="sy-error-text">
          {bulkRun.error}
        </p>
      )}
      {doneText !== null && (
        <p role="status" className="pp-muted">
          {doneText}
        </p>
      )}
      {/* Groups, not list items: the server rows are the popup's list items (tests find a
          server's row by role and name, and tool names contain the server's). */}
      <div className="pp-tools" role="group" aria-label={`Tools of ${server}`}>
        {shown.map((row) => (
          <ToolItem key={row.exposedName} row={row} onChanged={() => void reload()} />
        ))}
      </div>
    </>
  );
}

function ToolItem({
  row,
  onChanged,
}: {
  readonly row: ToolRowView;
  readonly onChanged: () => void;
}) {
  const client = useMemo(() => pageClient(), []);
  const { busy, error, run } = useAsyncAction();
  const actions = usePopupActions();

  const setPolicy = (value: string) => {
    if (!isPolicyChoice(value)) return;
    actions.begin();
    run(
      () => client.host('policy/set', { tool: row.exposedName, policy: policyParam(value) }),
      onChanged,
    );
  };

  return (
    <div className="pp-tool" role="group" aria-label={row.exposedName}>
      <div className="pp-tool-head">
        <code className="pp-tool-name">{row.exposedName}</code>
        <span className={`pp-policy pp-policy-${row.policy}`}>{row.policyLabel}</span>
        {/* On the name's line: one line less per tool (issue 14 measured 2,900 px for 14). */}
        <select
          className="pp-policy-select"
          aria-label={`Policy for ${row.exposedName}`}
          value={row.selectValue}
          // Not `disabled`: arrow keys on a focused select change it at once, and disabling it
          // then would drop the keyboard focus to the page.
          aria-disabled={busy}
          aria-busy={busy}
          onChange={(event) => {
            if (!busy) setPolicy(event.target.value);
          }}
        >
          {POLICY_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </div>
      <div className="pp-tool-meta pp-muted">
        <span>
          raw name{' '}
          <code>
            <VisibleText text={row.rawName} edgeSpaces />
          </code>
        </span>
        <span>{formatTokens(row.tokens)}</span>
        {row.tags.length > 0 && (
          <span title="What the server says about this tool: a claim, not a guarantee">
            claims {row.tags.join(', ')}
          </span>
        )}
      </div>
      {row.title !== null && (
        <div className="pp-tool-title">
          <UntrustedText text={row.title} inline />
        </div>
      )}
      {row.description !== '' && (
        // Collapsed: descriptions are long, and they are the server's words to the model.
        <details className="pp-tool-description">
          <summary>Description ({exactCount(row.description.length)} characters)</summary>
          <UntrustedText text={row.description} maxChars={DESCRIPTION_CHARS} />
        </details>
      )}
      {error !== null && (
        <p role="alert" className="sy-error-text">
          {error}
        </p>
      )}
    </div>
  );
}
