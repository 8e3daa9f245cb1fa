import { useEffect, useMemo, useRef, useState } from 'react';
import type { StoredApproval, UnapprovedPins } from '../../../protocol/approvals';
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
  forgetPinsLabel,
  forgottenText,
  pinsText,
  reviewOrder,
} from './approvals-view';
import { SectionNotice, type Notice } from './SectionNotice';

const loadApprovals = (
  client: PageClient,
): Promise<{ approvals: StoredApproval[]; unapprovedPins: UnapprovedPins[] }> =>
  client.host('trust/list', {});

// Approvals change with the servers (an approval, a revoke, a reload): re-read on those.
const onServerEvent = (event: PageEvent): boolean => event.type === 'host';

/**
 * The launch approvals Switchyard keeps (design D6), for review: what each let run, whether a
 * configured server still uses it, and Forget for those nothing uses (an approval left behind by
 * a server taken out of the configuration would approve the same launch again if it came back).
 * Then the tool pins a revoke kept (D7) for a server no approval covers, with Forget too.
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

  const forget = (
    target: Pick<StoredApproval, 'scope' | 'server'>,
    button: HTMLButtonElement,
  ): void => {
    const index = [...(listRef.current?.querySelectorAll('button') ?? [])].indexOf(button);
    setBusy(approvalKey(target));
    client
      .host('trust/forget', forgetParams(target))
      .then(async (result) => {
        setNotice({ error: false, text: forgottenText(target.server, result) });
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

  const approvals = data === null ? [] : reviewOrder(data.approvals);
  const leftPins = data?.unapprovedPins ?? [];
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
      {data !== null && approvals.length === 0 && leftPins.length === 0 && (
        <p className="op-muted">No approvals yet.</p>
      )}
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
        {leftPins.map((pins) => {
          const key = approvalKey(pins);
          return (
            <li key={key} className="op-profile op-approval" data-use="pins-only">
              <div className="op-profile-head">
                <strong>
                  <VisibleText text={pins.server} edgeSpaces />
                </strong>
                <span className="op-badge">Tool pins, no approval</span>
              </div>
              <p className="op-muted op-wrap">
                From <VisibleText text={approvalScopeText(pins.scope)} />: {pinsText(pins.pins)}{' '}
                kept when its approval was revoked. A server of this name would find these tools
                changed and suspended until you allow them again.
              </p>
              <div className="op-actions">
                <Button
                  aria-label={forgetPinsLabel(pins)}
                  disabled={busy !== null}
                  aria-busy={busy === key}
                  onClick={(event) => {
                    forget(pins, event.currentTarget);
                  }}
                >
                  Forget
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
