import type { ActiveProfileView } from '../../messaging/ui-protocol';
import { profileChipText } from './profile-chip';

/**
 * The active profile (design D10) and what chose it: the URL pattern the tab matched, or the
 * conversation opened from the history (issue 14).
 */
export function ProfileChip({ profile }: { readonly profile: ActiveProfileView | null }) {
  if (profile === null) return null;
  const text = profileChipText(profile);
  return (
    <span
      className="sy-chip sy-profile-chip"
      title={profile.url === null ? undefined : `Active tab: ${profile.url}`}
      aria-label={text.label}
    >
      <span className="sy-chip__name">{text.name}</span>
      <span className="sy-chip__pattern">{text.source}</span>
    </span>
  );
}
