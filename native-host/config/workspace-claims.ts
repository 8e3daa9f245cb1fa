import { formatJsonPath } from './json-format';

/**
 * Trust claims in a workspace file (seed plan G1): keys such as `approved`, `alwaysAllow` or
 * `fingerprint` that try to skip the trust gate. None is ever read; this module only finds them
 * so that the warning can say so out loud.
 */

// Matched on the key lower-cased with everything but letters and digits removed, so
// `always_allow`, `auto-approve` and `AutoApprove` are all caught. Over-matching costs nothing:
// every key outside the schema is ignored anyway; this list only says so out loud.
const TRUST_CLAIM =
  /trust|approv|allow|fingerprint|sha(1|256|512)|hash|signature|^pin|pinned|autostart|autorun|autoexec|confirm|consent|yolo|permission|bypass|policy|^enable|verified/;
/** Keys reported per entry at most; the rest are summed up. */
const MAX_REPORTED_CLAIMS = 32;

/** The keys among `keys` that claim trust, as written. */
export function claimKeys(keys: readonly string[]): string[] {
  return keys.filter((key) => TRUST_CLAIM.test(key.toLowerCase().replace(/[^a-z0-9]/g, '')));
}

/** Claim keys for display: plain words as is, others quoted with invisible characters escaped
 * (formatJsonPath's rules), at most MAX_REPORTED_CLAIMS of them. */
export function shownClaims(keys: readonly string[]): string[] {
  const shown = keys.slice(0, MAX_REPORTED_CLAIMS).map((key) => formatJsonPath([key]));
  if (keys.length > MAX_REPORTED_CLAIMS) shown.push(`(${keys.length - MAX_REPORTED_CLAIMS} more)`);
  return shown;
}
