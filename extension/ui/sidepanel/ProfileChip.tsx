import type { ActiveProfileView } from '../../messaging/ui-protocol';
import { UNKNOWN_PROFILE_CHIP, profileChipText } from './profile-chip';

/**
 * The active profile (design D10) and what chose it: the URL pattern the tab matched, or the
 * conversation opened from the history (issue 14). Connected without one, once the host has
 * answered, it says so: the model then has the built-in tools only. Before that answer (the host
 * just connected) there is nothing to say yet, and no chip.
 */
export function ProfileChip({
  profile,
  connected,
  settled,
}: {
  readonly profile: ActiveProfileView | null;
  readonly connected: boolean;
  readonly settled: boolean;
}) {
  if (profile === null && !(connected && settled)) return null;
  const text = profile === null ? UNKNOWN_PROFILE_CHIP : profileChipText(profile);
  return (
    <span
      className={`sy-chip sy-profile-chip${profile === null ? ' sy-profile-chip--unknown' : ''}`}
      title={
        profile === null
          ? text.label
          : profile.url === null
            ? undefined
            : `Active tab: ${profile.url}`
      }
    >
      {/* A plain span takes no accessible name (aria-label there is not read out), so the
          sentence is its text for screen readers, in place of the shortened visible words. */}
      <span className="sy-chip__name" aria-hidden="true">
        {text.name}
      </span>
      {text.source === '' ? null : (
        <span className="sy-chip__pattern" aria-hidden="true">
          {text.source}
        </span>
      )}
      <span className="sy-sr-only">{text.label}</span>
    </span>
  );
}
