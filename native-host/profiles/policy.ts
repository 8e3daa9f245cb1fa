import type { Profile } from '../../protocol/profiles';
import type { PolicyOverlay } from '../policy/tool-policy';
import { parseToolPolicy } from '../policy/tool-policy';

/**
 * The policy a profile adds to the user's `toolPolicy` (design D10, docs/decisions/0010): its
 * rules join the user's with the same precedence (any deny, then any ask, then allow), so they
 * tighten freely and an `allow` loosens only a tool that no `toolPolicy` rule asks about or
 * denies, and still asks when the server marks the tool destructive or its definition changed
 * (D7, D8). A read-only profile asks about every call. Undefined when the profile adds nothing.
 */
export function policyOverlay(profile: Profile): PolicyOverlay | undefined {
  const cached = overlays.get(profile);
  if (cached !== undefined) return cached ?? undefined;
  // The schema already checked every glob; parseToolPolicy normalizes them like toolPolicy's.
  const rules = profile.policy === undefined ? [] : parseToolPolicy(profile.policy).rules;
  const askOnly = profile.mode === 'read-only';
  const overlay = rules.length === 0 && !askOnly ? null : { rules, askOnly };
  overlays.set(profile, overlay);
  return overlay ?? undefined;
}

/** Keyed by the profile object, which is never modified (a change makes a new one). */
const overlays = new WeakMap<Profile, PolicyOverlay | null>();
