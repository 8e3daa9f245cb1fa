/**
 * Sanitizer for text written by MCP servers (design.md D9). Every server string — names,
 * descriptions, schema text, results, errors, stderr — passes through here before a model, a UI or
 * a log line sees it.
 *
 * What happens to each class of character:
 * - Terminal escape sequences (CSI, OSC including OSC 8 hyperlinks and title sets, DCS/SOS/PM/APC,
 *   two-byte ESC sequences) are dropped silently with their payload: they are formatting, colour is
 *   everywhere in stderr, and a terminal would not have shown their payload either.
 * - Line breaks: CRLF and lone CR become LF, as do U+2028/U+2029; with `keepNewlines: false` each
 *   line break becomes one space. Tabs stay unless `keepTabs: false` (then one space).
 * - Lone surrogates become U+FFFD.
 * - Everything else that is invisible or controls display is escaped: C0 controls (NUL, BEL, ESC
 *   left over from a malformed sequence, ...), DEL, C1 controls, every format character (`Cf`:
 *   bidi embeddings, overrides and isolates, LRM/RLM/ALM, zero-width space and joiners, word
 *   joiner, invisible operators, BOM, soft hyphen, Unicode tag characters, interlinear annotation),
 *   every default-ignorable code point (variation selectors, Hangul fillers, combining grapheme
 *   joiner, reserved ignorables) and noncharacters. `Cf` also holds a few visible prepended marks
 *   (Arabic number signs U+0600-0605); they are escaped too, which is rare and costs readability
 *   only. A maximal run of escaped code points becomes one visible marker naming the first:
 *   `⟦U+202E⟧`, or `⟦U+E0069 +36 more⟧` for a run of 37, so a reviewer sees that something was
 *   there without a 37-fold blow-up.
 *
 * Kept on purpose, because real text needs them and they hide at most a bit or two:
 * - U+200D ZWJ between emoji (👨‍👩‍👧, 🏳️‍🌈); U+200C/U+200D after a letter of a script that uses
 *   joiners (Persian ZWNJ, Indic conjuncts and chillus), unless a letter of another script follows.
 *   A joiner inside or after a Latin word is escaped.
 * - U+FE0E/U+FE0F once, directly after an emoji-capable character (❤️, 1️⃣). Other variation
 *   selectors (U+FE00-FE0D, U+E0100-E01EF) are escaped: 256 selectors after one emoji encode
 *   arbitrary bytes ("emoji smuggling"); Japanese ideographic variation sequences lose their glyph
 *   variant, which only costs readability.
 * - Tag characters only as the three RGI subdivision flags (England, Scotland, Wales); any other
 *   tag run, including one appended after a flag, is escaped (tag characters spell ASCII that
 *   models read and people cannot see).
 *
 * The output can be up to 8x longer than the input (one NUL becomes `⟦U+0000⟧`): cap after
 * sanitizing. Sanitizing is idempotent.
 */

import { formatCount } from './cap';

/** Options of `sanitizeText`. */
export interface SanitizeOptions {
  /** Keep line breaks as `\n` (default true). False turns each into one space, for one-line UI. */
  readonly keepNewlines?: boolean;
  /** Keep tabs (default true). False turns each into one space. */
  readonly keepTabs?: boolean;
}

// ECMA-48 sequences. Each control-string body stops at any ESC, BEL or C1 character, so a scan
// never runs past the next introducer: the whole replace stays linear on hostile input.
const TERMINAL_SEQUENCE = new RegExp(
  [
    // CSI: ESC [ or 8-bit CSI, parameter bytes, intermediate bytes, final byte (colours, cursor).
    String.raw`(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]`,
    // OSC (ESC ]), DCS (ESC P), SOS (ESC X), PM (ESC ^), APC (ESC _) or their 8-bit forms, ended
    // by ST (ESC \ or 0x9c) or, as xterm accepts, BEL. OSC 8 links and OSC 0/2 titles are here.
    String.raw`(?:\x1b[\]PX^_]|[\x90\x98\x9d-\x9f])[^\x07\x1b\x80-\x9f]*(?:\x07|\x1b\\|\x9c)`,
    // Any other escape: ESC, intermediate bytes, final byte (ESC 7, ESC c, ESC ( B). This also
    // eats the introducer of an unterminated control string; its body then stays visible as text.
    String.raw`\x1b[\x20-\x2f]*[\x30-\x7e]`,
  ].join('|'),
  'g',
);

// Everything the per-run rewrite must look at. Lone surrogates match `\ud800-\udfff` in u-mode.
const SUSPICIOUS_CLASS = String.raw`\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\p{Cf}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}\ud800-\udfff`;

const SUSPICIOUS_RUN = {
  keepAll: new RegExp(`[${SUSPICIOUS_CLASS}]+`, 'gu'),
  noTabs: new RegExp(`[${SUSPICIOUS_CLASS}\\t]+`, 'gu'),
  noNewlines: new RegExp(`[${SUSPICIOUS_CLASS}\\n]+`, 'gu'),
  noBreaks: new RegExp(`[${SUSPICIOUS_CLASS}\\t\\n]+`, 'gu'),
} as const;

const ZWNJ = 0x200c;
const ZWJ = 0x200d;
const TEXT_PRESENTATION = 0xfe0e;
const EMOJI_PRESENTATION = 0xfe0f;
const WAVING_BLACK_FLAG = 0x1f3f4;

/** Tag sequences of the RGI subdivision flags, after U+1F3F4: gbeng, gbsct, gbwls + cancel tag. */
const RGI_FLAG_TAGS = ['gbeng', 'gbsct', 'gbwls'].map(
  (code) =>
    Array.from(code, (letter) => String.fromCodePoint(0xe0000 + letter.charCodeAt(0))).join('') +
    String.fromCodePoint(0xe007f),
);

const EMOJI = /\p{Emoji}/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;

// Scripts whose orthography uses ZWNJ/ZWJ inside words (The Unicode Standard, 23.2 Layout Controls).
const JOINING_SCRIPTS = [
  /\p{Script=Arabic}/u,
  /\p{Script=Syriac}/u,
  /\p{Script=Nko}/u,
  /\p{Script=Mongolian}/u,
  /\p{Script=Devanagari}/u,
  /\p{Script=Bengali}/u,
  /\p{Script=Gurmukhi}/u,
  /\p{Script=Gujarati}/u,
  /\p{Script=Oriya}/u,
  /\p{Script=Tamil}/u,
  /\p{Script=Telugu}/u,
  /\p{Script=Kannada}/u,
  /\p{Script=Malayalam}/u,
  /\p{Script=Sinhala}/u,
];

function test(pattern: RegExp, codePoint: number | undefined): boolean {
  return codePoint !== undefined && pattern.test(String.fromCodePoint(codePoint));
}

function isEmojiModifier(codePoint: number | undefined): boolean {
  return codePoint !== undefined && codePoint >= 0x1f3fb && codePoint <= 0x1f3ff;
}

function canPrecedeEmojiZwj(codePoint: number | undefined): boolean {
  // A kept U+FE0F already followed an emoji, so it may continue the sequence (🏳️‍🌈).
  return (
    codePoint === EMOJI_PRESENTATION || isEmojiModifier(codePoint) || test(PICTOGRAPHIC, codePoint)
  );
}

const LETTER_OR_MARK = /[\p{L}\p{M}]/u;

/**
 * A joiner between two letters of one joining script, or ending a word in one (the Malayalam
 * chillu "ന്\u200D" is followed by a space). Never next to a letter of another script.
 */
function isScriptJoiner(before: number | undefined, after: number | undefined): boolean {
  return JOINING_SCRIPTS.some(
    (script) => test(script, before) && (test(script, after) || !test(LETTER_OR_MARK, after)),
  );
}

function codePointBefore(text: string, index: number): number | undefined {
  if (index === 0) return undefined;
  const unit = text.charCodeAt(index - 1);
  if (unit >= 0xdc00 && unit <= 0xdfff && index >= 2) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(index - 2);
  }
  return unit;
}

/** `⟦U+202E⟧` for one escaped code point, `⟦U+E0069 +36 more⟧` for a run of 37. */
function marker(first: number, count: number): string {
  const name = `U+${first.toString(16).toUpperCase().padStart(4, '0')}`;
  return count === 1 ? `⟦${name}⟧` : `⟦${name} +${formatCount(count - 1)} more⟧`;
}

/** Rewrites one run of suspicious code points found at `offset` in `whole`. */
function rewriteRun(run: string, offset: number, whole: string, lineBreak: string): string {
  let out = '';
  // The last code point written verbatim, for context rules; undefined after a marker.
  let previous = codePointBefore(whole, offset);
  let escapedFirst = 0;
  let escapedCount = 0;

  const flush = (): void => {
    if (escapedCount > 0) out += marker(escapedFirst, escapedCount);
    escapedCount = 0;
  };
  const emit = (chunk: string, last: number): void => {
    flush();
    out += chunk;
    previous = last;
  };
  const markEscaped = (codePoint: number): void => {
    if (escapedCount === 0) escapedFirst = codePoint;
    escapedCount += 1;
    previous = undefined;
  };

  let i = 0;
  while (i < run.length) {
    const codePoint = run.codePointAt(i) ?? 0;
    const size = codePoint > 0xffff ? 2 : 1;
    const next = whole.codePointAt(offset + i + size);

    if (codePoint >= 0xd800 && codePoint <= 0xdfff) {
      emit('\uFFFD', 0xfffd);
    } else if (codePoint === 0x0d && next === 0x0a) {
      // CR of a CRLF: the LF that follows is the line break.
    } else if (
      codePoint === 0x0a ||
      codePoint === 0x0d ||
      codePoint === 0x2028 ||
      codePoint === 0x2029
    ) {
      emit(lineBreak, lineBreak.charCodeAt(0));
    } else if (codePoint === 0x09) {
      emit(' ', 0x20);
    } else if (codePoint === 0xe0067 && previous === WAVING_BLACK_FLAG) {
      const flag = RGI_FLAG_TAGS.find((tags) => whole.startsWith(tags, offset + i));
      if (flag !== undefined) {
        emit(flag, 0xe007f);
        i += flag.length;
        continue;
      }
      markEscaped(codePoint);
    } else if (
      ((codePoint === TEXT_PRESENTATION || codePoint === EMOJI_PRESENTATION) &&
        test(EMOJI, previous)) ||
      (codePoint === ZWJ && canPrecedeEmojiZwj(previous) && test(PICTOGRAPHIC, next)) ||
      ((codePoint === ZWJ || codePoint === ZWNJ) && isScriptJoiner(previous, next))
    ) {
      emit(String.fromCodePoint(codePoint), codePoint);
    } else {
      markEscaped(codePoint);
    }
    i += size;
  }
  flush();
  return out;
}

/**
 * Returns `text` safe to show to a model, a UI or a terminal: terminal escape sequences removed,
 * line breaks normalised to `\n` (or spaces), lone surrogates replaced with U+FFFD, and every other
 * control, bidi, zero-width, tag, variation-selector or otherwise invisible code point replaced by
 * a visible `⟦U+XXXX⟧` marker (one per run), except the emoji and script joiners real text needs
 * (see the module comment). Printable text, including CJK, Arabic, Hebrew and emoji, is unchanged.
 * Linear in the input; idempotent; the output can be up to 8x longer than the input.
 */
export function sanitizeText(text: string, options: SanitizeOptions = {}): string {
  const keepNewlines = options.keepNewlines ?? true;
  const keepTabs = options.keepTabs ?? true;
  const pattern = keepNewlines
    ? keepTabs
      ? SUSPICIOUS_RUN.keepAll
      : SUSPICIOUS_RUN.noTabs
    : keepTabs
      ? SUSPICIOUS_RUN.noNewlines
      : SUSPICIOUS_RUN.noBreaks;
  const lineBreak = keepNewlines ? '\n' : ' ';
  const withoutSequences = text.replace(TERMINAL_SEQUENCE, '');
  return withoutSequences.replace(pattern, (run: string, offset: number, whole: string) =>
    rewriteRun(run, offset, whole, lineBreak),
  );
}

/** Bounds of `sanitizeDeep`. */
export interface SanitizeDeepOptions {
  /** Levels of arrays/objects kept, the root being level 1 (default 64); deeper ones become a marker. */
  readonly maxDepth?: number;
  /** Values visited before the rest of each open array/object is cut (default 100,000). */
  readonly maxNodes?: number;
}

/** Result of `sanitizeDeepWithReport`. */
export interface SanitizedDeep {
  readonly value: unknown;
  /** True when a depth or node bound cut something; the cut places carry a `⟦truncated: …⟧` marker. */
  readonly truncated: boolean;
}

/** Key under which a cut object records how many keys were dropped. */
export const TRUNCATED_KEY = '⟦truncated⟧';

const DEFAULT_MAX_DEPTH = 64;
const DEFAULT_MAX_NODES = 100_000;

function plural(count: number, noun: string): string {
  return `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;
}
/**
 * Like `sanitizeDeep`, and also says whether a bound cut anything. An array cut by the node bound
 * ends with the string `⟦truncated: N more items⟧`; an object gains the key `⟦truncated⟧` with
 * `⟦truncated: N more keys⟧`; a container deeper than `maxDepth` is replaced by
 * `⟦truncated: nested deeper than D levels⟧`. Cycles end at the depth bound.
 */
export function sanitizeDeepWithReport(
  value: unknown,
  options: SanitizeDeepOptions = {},
): SanitizedDeep {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxNodes = options.maxNodes ?? DEFAULT_MAX_NODES;
  let nodes = 0;
  let truncated = false;

  const visit = (current: unknown, depth: number): unknown => {
    nodes += 1;
    if (typeof current === 'string') return sanitizeText(current);
    if (
      current === null ||
      current === undefined ||
      typeof current === 'number' ||
      typeof current === 'boolean'
    ) {
      return current;
    }
    // bigint, symbol, function: not JSON, and their text is not data a model needs.
    if (typeof current !== 'object') return null;
    if (depth > maxDepth) {
      truncated = true;
      return `⟦truncated: nested deeper than ${plural(maxDepth, 'level')}⟧`;
    }
    if (Array.isArray(current)) {
      const items: readonly unknown[] = current;
      const out: unknown[] = [];
      for (let i = 0; i < items.length; i += 1) {
        if (nodes >= maxNodes) {
          truncated = true;
          out.push(`⟦truncated: ${plural(items.length - i, 'more item')}⟧`);
          break;
        }
        out.push(visit(items[i], depth + 1));
      }
      return out;
    }
    const entries: [string, unknown][] = [];
    const source: [string, unknown][] = Object.entries(current);
    for (let i = 0; i < source.length; i += 1) {
      if (nodes >= maxNodes) {
        truncated = true;
        entries.push([TRUNCATED_KEY, `⟦truncated: ${plural(source.length - i, 'more key')}⟧`]);
        break;
      }
      const [key, child] = source[i] ?? ['', undefined];
      entries.push([sanitizeText(key), visit(child, depth + 1)]);
    }
    // fromEntries defines own properties, so a "__proto__" key stays data instead of a prototype.
    return Object.fromEntries(entries);
  };

  const result = visit(value, 1);
  return { value: result, truncated };
}

/**
 * Returns a copy of a JSON value with `sanitizeText` applied to every string, object keys
 * included. Bounded: containers nested deeper than `maxDepth` (default 64) and values past the
 * `maxNodes`-th (default 100,000) are replaced by visible `⟦truncated: …⟧` markers instead of
 * being walked. Non-JSON values: bigint, symbol and function become null; other objects are read
 * through their own enumerable string keys. Keys that sanitize to the same text: the last wins
 * (the server wrote both). Use `sanitizeDeepWithReport` to learn whether anything was cut.
 */
export function sanitizeDeep(value: unknown, options: SanitizeDeepOptions = {}): unknown {
  return sanitizeDeepWithReport(value, options).value;
}
