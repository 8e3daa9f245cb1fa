import { useMemo, useState } from 'react';
import type { StoredApproval } from '../../../protocol/approvals';
import type { PageClient } from '../../messaging/page-client';
import type { PageEvent } from '../../messaging/ui-protocol';
import { Button } from '../common/Button';
import { commandLine, fingerprintPrefix } from '../common/consent-view';
import { errorMessage } from '../common/errors';
import { longDate } from '../common/format';
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
  const [notice, setNotice] = useState<{ error: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const forget = (approval: StoredApproval): void => {
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
      <h2 id="approvals-heading">Approved servers</h2>
      <p className="op-muted">
        What you approved to run, by fingerprint. An approval a server no longer uses grants
        nothing, but would approve the same launch again if that server came back: forget it.
      </p>
      {error !== null && <p className="sy-error-text">{error}</p>}
      {notice !== null && (
        <p role="status" className={notice.error ? 'sy-error-text' : 'op-muted'}>
          {notice.text}
        </p>
      )}
      {data !== null && approvals.length === 0 && <p className="op-muted">No approvals yet.</p>}
      <ul className="op-profile-list" aria-label="Approvals">
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
                {longDate(approval.approvedAt.slice(0, 10))}, fingerprint{' '}
                <code title={approval.fingerprint}>{fingerprintPrefix(approval.fingerprint)}…</code>
                {approval.pins > 0 && `, ${pinsText(approval.pins)}`}
              </p>
              {approval.use !== 'in-use' && (
                <div className="op-actions">
                  <Button
                    aria-label={forgetLabel(approval)}
                    disabled={busy !== null}
                    aria-busy={busy === key}
                    onClick={() => {
                      forget(approval);
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
