/**
 * Token estimates for what the model is sent (design D11), without a tokenizer dependency: the
 * host reports per-tool and per-server cost and enforces per-profile budgets with these numbers.
 *
 * The heuristic models how BPE vocabularies (cl100k_base, o200k_base) cut text: into runs of one
 * character class, most runs being a single token.
 * - ASCII letter run: 1 token up to 8 letters, then +1 per further 8. A common English word or
 *   identifier is one token whatever its length; long compounds split.
 * - Digit run: 1 token per 3 digits (both vocabularies chunk numbers into groups of at most 3).
 * - ASCII punctuation run: 1 token up to 4 characters, then +1 per further 4. Compact JSON's
 *   `":"`, `","`, `":{"` and `"},"` are single tokens, which is why a flat 4 chars/token
 *   overestimates tool JSON by about 20% (it is closer to 4.6).
 * - Whitespace run: a single space is free (it merges into the next token); any other run is 1
 *   token up to 16 characters (newline plus indentation), then +1 per further 16.
 * - Non-ASCII run: by UTF-8 length per code point, 1/2 token for 2 bytes (accented Latin, Greek,
 *   Cyrillic, Arabic), 1 for 3 bytes (CJK, Indic, most symbols), 2 for 4 bytes (emoji), and at
 *   least 1 per run. The two vocabularies differ by up to 3x on non-Latin scripts; these weights
 *   sit near cl100k, the denser one, so a budget errs towards too few tools rather than too many.
 *
 * Measured on 153 real tool listings (36 from server-everything, -filesystem and -memory, 117 from
 * github-mcp-server's snapshots; 131k characters of `{name, description, input_schema}` JSON):
 * total +4.6% against cl100k and +0.3% against o200k; per tool between -11% and +15%. Pretty-printed
 * JSON and English prose land within 5% in total. Other vendors' tokenizers (Anthropic, Gemini) are
 * not public: treat every number here as an estimate, not a bill.
 */

/** Costs are summed in integer sixteenths of a token, so the total is exact and monotone. */
const UNITS_PER_TOKEN = 16;

const LETTER_RUN_FREE_CHARS = 8;
const LETTER_CHARS_PER_EXTRA_TOKEN = 8;
const DIGITS_PER_TOKEN = 3;
const PUNCTUATION_RUN_FREE_CHARS = 4;
const PUNCTUATION_CHARS_PER_EXTRA_TOKEN = 4;
const WHITESPACE_RUN_FREE_CHARS = 16;
const WHITESPACE_CHARS_PER_EXTRA_TOKEN = 16;
/** Per code point, by UTF-8 length: 2, 3 and 4 bytes. */
const UNITS_PER_2_BYTE_CHAR = UNITS_PER_TOKEN / 2;
const UNITS_PER_3_BYTE_CHAR = UNITS_PER_TOKEN;
const UNITS_PER_4_BYTE_CHAR = UNITS_PER_TOKEN * 2;

/**
 * Estimated tokens of `text` for cl100k/o200k-class tokenizers (see the module comment for the
 * constants and their measured error).
 *
 * Contract: deterministic, an integer >= 0, 0 only for '' and a lone space, and monotone: adding
 * characters anywhere in a text never lowers its estimate. Linear time.
 */
export function estimateTokens(text: string): number {
  let units = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    let j = i + 1;
    if (isAsciiLetter(c)) {
      while (j < n && isAsciiLetter(text.charCodeAt(j))) j++;
      units += runUnits(j - i, LETTER_RUN_FREE_CHARS, LETTER_CHARS_PER_EXTRA_TOKEN);
    } else if (isDigit(c)) {
      while (j < n && isDigit(text.charCodeAt(j))) j++;
      units += Math.ceil((j - i) / DIGITS_PER_TOKEN) * UNITS_PER_TOKEN;
    } else if (isWhitespace(c)) {
      while (j < n && isWhitespace(text.charCodeAt(j))) j++;
      const loneSpace = j - i === 1 && c === SPACE;
      units += loneSpace
        ? 0
        : runUnits(j - i, WHITESPACE_RUN_FREE_CHARS, WHITESPACE_CHARS_PER_EXTRA_TOKEN);
    } else if (c < 0x80) {
      while (j < n && isAsciiPunctuation(text.charCodeAt(j))) j++;
      units += runUnits(j - i, PUNCTUATION_RUN_FREE_CHARS, PUNCTUATION_CHARS_PER_EXTRA_TOKEN);
    } else {
      let weight = 0;
      j = i;
      while (j < n && text.charCodeAt(j) >= 0x80) {
        // A lone surrogate reads as its own code unit (< 0x10000): counted like a 3-byte char.
        const codePoint = text.codePointAt(j) ?? 0;
        weight +=
          codePoint < 0x800
            ? UNITS_PER_2_BYTE_CHAR
            : codePoint < 0x10000
              ? UNITS_PER_3_BYTE_CHAR
              : UNITS_PER_4_BYTE_CHAR;
        j += codePoint > 0xffff ? 2 : 1;
      }
      units += Math.max(UNITS_PER_TOKEN, weight);
    }
    i = j;
  }
  return Math.ceil(units / UNITS_PER_TOKEN);
}

/** One tool as it appears in a model-facing listing. */
export interface ToolTokenInput {
  /** The exposed name. */
  readonly name: string;
  /** The description as sent (after sanitizing and capping). */
  readonly description: string;
  readonly inputSchema: unknown;
}

/**
 * Estimated tokens one tool adds to every model turn: the estimate of its compact JSON
 * `{"name","description","input_schema"}`, which is what the calibration measured and includes the
 * framing keys. `outputSchema` and annotations are not sent to the model (design D11) and not
 * counted. A schema JSON cannot serialize (a cycle, a BigInt; impossible for one parsed off the
 * wire) is counted with cycles cut and BigInts as strings, never thrown on.
 *
 * Contract: deterministic, a positive integer; adding text to the name or description never lowers
 * it.
 */
export function estimateToolTokens(tool: ToolTokenInput): number {
  return estimateTokens(
    `{"name":${JSON.stringify(tool.name)},"description":${JSON.stringify(tool.description)},"input_schema":${schemaJson(tool.inputSchema)}}`,
  );
}

function schemaJson(schema: unknown): string {
  // JSON.stringify returns undefined for these at runtime, though its type says string.
  if (schema === undefined || typeof schema === 'function' || typeof schema === 'symbol') {
    return 'null';
  }
  try {
    return JSON.stringify(schema);
  } catch {
    // A cycle or a BigInt: serialize what can be, rather than fail a whole listing.
  }
  // Cuts repeated references too, not only cycles: an undercount only on this fallback path.
  const seen: WeakSet<object> = new WeakSet();
  try {
    return JSON.stringify(schema, (_key, value: unknown) => {
      if (typeof value === 'bigint') return value.toString();
      if (typeof value === 'object' && value !== null) {
        if (seen.has(value)) return '[cycle]';
        seen.add(value);
      }
      return value;
    });
  } catch {
    // A throwing getter or toJSON.
    return 'null';
  }
}

function runUnits(length: number, freeChars: number, charsPerExtraToken: number): number {
  // Subadditive (free chars <= chars per extra token), so splitting a run never lowers the total.
  return UNITS_PER_TOKEN + Math.max(0, length - freeChars) * (UNITS_PER_TOKEN / charsPerExtraToken);
}

const SPACE = 0x20;

function isAsciiLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isWhitespace(c: number): boolean {
  return c === SPACE || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** ASCII that is not a letter, digit or whitespace (includes control characters). */
function isAsciiPunctuation(c: number): boolean {
  return c < 0x80 && !isAsciiLetter(c) && !isDigit(c) && !isWhitespace(c);
}
