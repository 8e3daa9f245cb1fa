import type { ActiveProfileView } from '../../messaging/ui-protocol';

/**
 * The header chip's words (design D10, issue 14): the active profile, and what chose it — the URL
 * pattern the tab matched, the default profile, or the conversation opened from the history.
 */
export interface ProfileChipText {
  readonly name: string;
  readonly source: string;
  readonly label: string;
}

export function profileChipText(profile: ActiveProfileView): ProfileChipText {
  if (profile.pinned === true) {
    return {
      name: profile.name,
      source: 'this conversation',
      label: `Profile ${profile.name}, the one this conversation began with`,
    };
  }
  const pattern = profile.matchedPattern ?? 'default profile';
  return {
    name: profile.name,
    source: pattern,
    label: `Profile ${profile.name}, matched by ${pattern}`,
  };
}

/**
 * The chip while connected but without a profile: the host could not say which one the tab
 * selects (it did not answer, or refused the address), so runs get the built-in tools only
 * (fail closed, docs/security.md), and the chip says why the MCP tools are missing.
 */
export const UNKNOWN_PROFILE_CHIP: ProfileChipText = {
  name: 'No profile',
  // Nothing chose it; the label and the tooltip say what it means.
  source: '',
  label:
    'Profile unknown: the host could not say which profile this tab selects, so the model has the built-in tools only',
};

/** The notice when an opened conversation's profile was deleted since. */
export function profileGoneText(name: string, using: string | null): string {
  const now =
    using === null ? 'the profile the active tab selects' : `“${using}”, the active tab’s profile`;
  return `This conversation began with the profile “${name}”, which has been deleted. It goes on with ${now}.`;
}
