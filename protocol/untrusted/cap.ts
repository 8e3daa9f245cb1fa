/**
 * Size caps for untrusted text (design.md D9, D11). Descriptions and results are cut to a budget with
 * a visible marker that states the original size, so neither the model nor the user mistakes a
 * prefix for the whole. Run after `redactSecrets`: a secret cut in half is no longer recognised.
 */

/** Result of capping a string to a budget. */
export interface CappedText {
  /** The text, or a prefix of it followed by the truncation marker; never longer than the budget. */
  readonly text: string;
  /** True when anything was cut. */
  readonly truncated: boolean;
  /** Length of the input in UTF-16 code units (JavaScript `length`). */
  readonly originalChars: number;
}

/** Result of capping a string to a UTF-8 byte budget. */
export interface CappedBytes {
  /** The text, or a prefix of it followed by the truncation marker; its UTF-8 form fits the budget. */
  readonly text: string;
  /** True when anything was cut. */
  readonly truncated: boolean;
  /** Length of the input's UTF-8 encoding in bytes (lone surrogates count as U+FFFD, 3 bytes). */
  readonly originalBytes: number;
}

/** Marker used when the budget is too small for the full one; cut further if even this is too long. */
const SHORT_MARKER = '…[truncated]';

/**
 * Formats a non-negative integer with comma thousands separators ("183,422"), independent of the
 * host's locale so output is deterministic.
 */
export function formatCount(count: number): string {
  const digits = String(Math.trunc(count));
  let out = '';
  for (let i = 0; i < digits.length; i += 1) {
    const fromEnd = digits.length - i;
    if (i > 0 && fromEnd % 3 === 0) out += ',';
    out += digits.charAt(i);
  }
  return out;
}

/**
 * The one truncation marker for text (`…[truncated: showing 2,000 of 183,422 characters]`):
 * `capText` ends with it, and so does the extension's cap of page text.
 */
export function truncationMarker(kept: number, total: number): string {
  return `…[truncated: showing ${formatCount(kept)} of ${formatCount(total)} characters]`;
}

function bytesMarker(kept: number, total: number): string {
  return `…[truncated: showing ${formatCount(kept)} of ${formatCount(total)} bytes]`;
}

function assertBudget(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${String(value)}`);
  }
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/**
 * Caps `text` to at most `maxChars` UTF-16 code units. Text that fits is returned unchanged.
 * Otherwise the result is a prefix plus `…[truncated: showing 2,000 of 183,422 characters]`, where
 * "showing" is the exact prefix length, and the whole result is at most `maxChars` long. The cut
 * never splits a surrogate pair. When even the marker does not fit, the result is as much of
 * `…[truncated]` as fits (possibly empty). Throws `RangeError` if `maxChars` is not a non-negative
 * integer.
 */
export function capText(text: string, maxChars: number): CappedText {
  assertBudget('maxChars', maxChars);
  const total = text.length;
  if (total <= maxChars) return { text, truncated: false, originalChars: total };

  // The marker for a prefix of `maxChars` is at least as long as the one for any shorter prefix,
  // so this fits; a shorter count may free a character or two, so grow while it still fits.
  let kept = maxChars - truncationMarker(maxChars, total).length;
  if (kept < 0) {
    return { text: SHORT_MARKER.slice(0, maxChars), truncated: true, originalChars: total };
  }
  while (kept + 1 + truncationMarker(kept + 1, total).length <= maxChars) kept += 1;
  if (kept > 0 && isHighSurrogate(text.charCodeAt(kept - 1))) kept -= 1;
  return {
    text: text.slice(0, kept) + truncationMarker(kept, total),
    truncated: true,
    originalChars: total,
  };
}

/**
 * Number of bytes in the UTF-8 encoding of `text`, counting each lone surrogate as the 3 bytes of
 * U+FFFD, as `TextEncoder` and `Buffer.from` encode it.
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (isHighSurrogate(unit) && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Caps `text` so its UTF-8 encoding is at most `maxBytes` bytes, for frame budgets (Chromium drops
 * a host -> browser frame over 1 MiB). Same contract as `capText`, with the marker counting bytes:
 * `…[truncated: showing 1,000 of 5,000,000 bytes]`. The cut is on a code point boundary. The
 * budget is for the raw text: JSON escaping can grow it, so leave headroom when framing.
 */
export function capBytesUtf8(text: string, maxBytes: number): CappedBytes {
  assertBudget('maxBytes', maxBytes);
  const total = utf8Length(text);
  if (total <= maxBytes) return { text, truncated: false, originalBytes: total };

  const budget = maxBytes - utf8Length(bytesMarker(maxBytes, total));
  if (budget < 0) {
    // SHORT_MARKER is "…" (3 bytes) then ASCII, so cutting it by code units never splits the "…".
    let short = SHORT_MARKER;
    while (utf8Length(short) > maxBytes) short = short.slice(0, -1);
    return { text: short, truncated: true, originalBytes: total };
  }
  let end = 0;
  let used = 0;
  while (end < text.length) {
    const unit = text.charCodeAt(end);
    const pair = isHighSurrogate(unit) && isLowSurrogate(text.charCodeAt(end + 1));
    const size = unit < 0x80 ? 1 : unit < 0x800 ? 2 : pair ? 4 : 3;
    if (used + size > budget) break;
    used += size;
    end += pair ? 2 : 1;
  }
  return {
    text: text.slice(0, end) + bytesMarker(used, total),
    truncated: true,
    originalBytes: total,
  };
}
