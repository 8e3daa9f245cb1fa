import { useEffect, useMemo, useRef, useState } from 'react';
import type { StoredApproval } from '../../../protocol/approvals';
import type { PageClient } from '../../messaging/page-client';
import type { PageEvent } from '../../messaging/ui-protocol';
import { Button } from '../common/Button';
import { commandLine, fingerprintPrefix } from '../common/consent-view';
import { errorMessage } from '../common/errors';
import { localLongDate } from '../common/format';
import { pageClient } from '../common/page-client';
import { VisibleText } from '../common/VisibleText';
import { useLive } from '../popup/use-host-data';
import {
  approvalKey,
  approvalScopeText,
  approvalUseText,
  forgetLabel,
  forgetParams,
  pinsText,
  reviewOrder,
} from './approvals-view';
import { SectionNotice, type Notice } from './SectionNotice';

const loadApprovals = async (client: PageClient): Promise<readonly StoredApproval[]> =>
  (await client.host('trust/list', {})).approvals;

// Approvals change with the servers (an approval, a revoke, a reload): re-read on those.
const onServerEvent = (event: PageEvent): boolean => event.type === 'host';

/**
 * The launch approvals Switchyard keeps (design D6), for review: what each let run, whether a
 * configured server still uses it, and Forget for those nothing uses (an approval left behind by
 * a server taken out of the configuration would approve the same launch again if it came back).
 */
export function ApprovalsSection() {
  const client = useMemo(() => pageClient(), []);
  const { data, error, reload } = useLive(loadApprovals, onServerEvent);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const listRef = useRef<HTMLUListElement>(null);

  /** Where the Forget button last pressed stood among the buttons, until focus is placed. */
  const focusAfter = useRef<number | null>(null);

  // The forgotten row's button is gone: keyboard focus moves to the button that took its place
  // (or the last one left), or to the section's heading when none is left, not to the page. Once
  // the list is re-read and the buttons are enabled again, that is, after the render.
  useEffect(() => {
    const index = focusAfter.current;
    if (index === null || busy !== null) return;
    focusAfter.current = null;
    const buttons = listRef.current?.querySelectorAll('button') ?? [];
    const next = buttons[Math.min(index, buttons.length - 1)] ?? headingRef.current;
    next?.focus();
  }, [busy, data]);

  const forget = (approval: StoredApproval, button: HTMLButtonElement): void => {
    const index = [...(listRef.current?.querySelectorAll('button') ?? [])].indexOf(button);
    setBusy(approvalKey(approval));
    client
      .host('trust/forget', forgetParams(approval))
      .then(async (result) => {
        const pins = result.pins === 0 ? '' : ` and ${pinsText(result.pins)}`;
        setNotice({
          error: false,
          text: result.launch
            ? `Forgot the approval of ${approval.server}${pins}.`
            : `The approval of ${approval.server} was already gone.`,
        });
        focusAfter.current = Math.max(index, 0);
        await reload();
      })
      .catch((e: unknown) => {
        setNotice({ error: true, text: errorMessage(e) });
      })
      .finally(() => {
        setBusy(null);
      });
  };

  const approvals = data === null ? [] : reviewOrder(data);
  return (
    <section className="op-card" aria-labelledby="approvals-heading">
      <h2 id="approvals-heading" ref={headingRef} tabIndex={-1}>
        Approved servers
      </h2>
      <p className="op-muted">
        What you approved to run, by fingerprint. An approval a server no longer uses grants
        nothing, but would approve the same launch again if that server came back: forget it.
      </p>
      {error !== null && <p className="sy-error-text">{error}</p>}
      <SectionNotice notice={notice} />
      {data !== null && approvals.length === 0 && <p className="op-muted">No approvals yet.</p>}
      <ul ref={listRef} className="op-profile-list" aria-label="Approvals">
        {approvals.map((approval) => {
          const key = approvalKey(approval);
          return (
            <li key={key} className="op-profile op-approval" data-use={approval.use}>
              <div className="op-profile-head">
                <strong>
                  <VisibleText text={approval.server} edgeSpaces />
                </strong>
                <span className="op-badge">{approvalUseText(approval.use)}</span>
              </div>
              <code className="op-wrap">
                <VisibleText text={commandLine(approval.executable, approval.args)} />
              </code>
              <p className="op-muted op-wrap">
                From <VisibleText text={approvalScopeText(approval.scope)} />, approved{' '}
                {localLongDate(approval.approvedAt)}, fingerprint{' '}
                <code title={approval.fingerprint}>{fingerprintPrefix(approval.fingerprint)}…</code>
                {approval.pins > 0 && `, ${pinsText(approval.pins)}`}
              </p>
              {approval.use !== 'in-use' && (
                <div className="op-actions">
                  <Button
                    aria-label={forgetLabel(approval)}
                    disabled={busy !== null}
                    aria-busy={busy === key}
                    onClick={(event) => {
                      forget(approval, event.currentTarget);
                    }}
                  >
                    Forget
                  </Button>
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
