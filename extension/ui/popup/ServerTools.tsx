import { useCallback, useMemo } from 'react';
import type { ResultOf } from '../../../protocol/methods';
import type { PageClient } from '../../messaging/page-client';
import type { PageEvent } from '../../messaging/ui-protocol';
import { exactCount } from '../common/format';
import { pageClient } from '../common/page-client';
import { UntrustedText } from '../common/UntrustedText';
import { useAsyncAction } from '../common/use-async-action';
import { VisibleText } from '../common/VisibleText';
import { formatTokens } from './server-view';
import {
  isPolicyChoice,
  POLICY_CHOICES,
  policyParam,
  toolRows,
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
  return (
    <>
      <p className="pp-muted">
        {rows.length} {rows.length === 1 ? 'tool' : 'tools'}
        {where}, largest first:
      </p>
      {/* Groups, not list items: the server rows are the popup's list items (tests find a
          server's row by role and name, and tool names contain the server's). */}
      <div className="pp-tools" role="group" aria-label={`Tools of ${server}`}>
        {rows.map((row) => (
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
      <label className="pp-inline-field">
        <span>Policy</span>
        <select
          aria-label={`Policy for ${row.exposedName}`}
          value={row.selectValue}
          disabled={busy}
          onChange={(event) => {
            setPolicy(event.target.value);
          }}
        >
          {POLICY_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </label>
      {error !== null && (
        <p role="alert" className="sy-error-text">
          {error}
        </p>
      )}
    </div>
  );
}
