import type { ActiveProfileView } from '../../messaging/ui-protocol';

/** The profile the active tab selected (design D10), and the URL pattern that selected it. */
export function ProfileChip({ profile }: { readonly profile: ActiveProfileView | null }) {
  if (profile === null) return null;
  const pattern = profile.matchedPattern ?? 'default profile';
  return (
    <span
      className="sy-chip sy-profile-chip"
      title={profile.url === null ? undefined : `Active tab: ${profile.url}`}
      aria-label={`Profile ${profile.name}, matched by ${pattern}`}
    >
      <span className="sy-chip__name">{profile.name}</span>
      <span className="sy-chip__pattern">{pattern}</span>
    </span>
  );
}
