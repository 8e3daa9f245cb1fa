import { ConnectionBanner } from '../common/ConnectionBanner';
import { RuntimeNotice } from '../common/RuntimeNotice';
import { useSession } from '../popup/use-host-data';
import { ActivitySection } from './ActivitySection';
import { ApprovalsSection } from './ApprovalsSection';
import { HistorySection } from './HistorySection';
import { ImportSection } from './ImportSection';
import { ProfilesSection } from './ProfilesSection';
import { ProviderSection } from './ProviderSection';

/**
 * The options page: the model provider (issue 4), per-site profiles and import (issue 5), the
 * launch approvals kept (design D6), and the activity log (issue 13). `options.html#activity` (the popup's Activity link) opens at it.
 * The footer links to the privacy statement (privacy.html, docs/privacy.md bundled).
 */
export function OptionsApp() {
  const { connection } = useSession();
  return (
    <main className="op-page">
      <h1>Switchyard settings</h1>
      {connection !== null && <ConnectionBanner state={connection} />}
      {connection !== null && <RuntimeNotice state={connection} />}
      <ProviderSection />
      <HistorySection />
      <ProfilesSection />
      <ApprovalsSection />
      <ImportSection />
      <ActivitySection />
      <footer className="op-footer">
        <a href="/privacy.html">Privacy</a>: what Switchyard stores, and what leaves your computer
        (only what goes to your model provider and your servers).
      </footer>
    </main>
  );
}
