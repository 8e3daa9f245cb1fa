import { closingLine, openingAt } from '../../protocol/untrusted/block';
import { capText } from '../../protocol/untrusted/cap';

/**
 * A tool result's text cut to fit what is left of the model's context window. The host caps a
 * result at 1 MiB, about 250,000 tokens: more than most windows, and the context trim cannot leave
 * out anything of the turn in progress, so one large result made the next request too large for
 * the provider, which refused it and ended the run. Pure.
 *
 * The text is a sequence of untrusted-data blocks (the host's and the worker's, design D9) and
 * the worker's own lines between them. Only payloads are cut, the longest first, each to a prefix
 * with the usual truncation marker, inside its block: the opening and closing lines stay as they
 * were, so every block still ends at its own closing line (a prefix of a payload cannot contain
 * it). Text that is not such a sequence, or whose blocks alone would not fit, is replaced by a
 * line saying how large it was.
 */

/** The least a result is cut to, whatever the window: a page of text. */
export const MIN_RESULT_CHARS = 2_000;
/**
 * Characters per token assumed when turning a token budget into characters: below the usual 4 of
 * English text, so a result of code or numbers (more tokens per character) still fits.
 */
const CHARS_PER_TOKEN = 3;

/**
 * How many characters each result of a round may take: half of what the window has left for the
 * turn in progress, shared by the round's calls (so later rounds of the turn still have room),
 * never under MIN_RESULT_CHARS.
 */
export function resultCharBudget(remainingTokens: number, callsInRound: number): number {
  const share = Math.floor(remainingTokens / 2 / Math.max(1, callsInRound));
  return Math.max(MIN_RESULT_CHARS, share * CHARS_PER_TOKEN);
}

interface Segment {
  /** Text kept as it is: the worker's lines, or a block's opening lines. */
  readonly before: string;
  /** A block's payload (empty for a plain segment) and its closing line. */
  readonly payload: string;
  readonly after: string;
}

/** The text as plain runs and blocks, or undefined when a block does not close. */
function segments(text: string): Segment[] | undefined {
  const found: Segment[] = [];
  let at = 0;
  let plain = '';
  while (at < text.length) {
    const start = text.indexOf('<untrusted-data id="', at);
    if (start < 0) break;
    const opening = openingAt(text, start);
    if (opening === undefined) {
      plain += text.slice(at, start + 1);
      at = start + 1;
      continue;
    }
    // A payload never holds its block's id, so the first closing line with it is the block's.
    const closing = `\n${closingLine(opening.id)}`;
    const end = text.indexOf(closing, opening.payloadStart);
    if (end < 0) return undefined;
    found.push({
      before: plain + text.slice(at, opening.payloadStart),
      payload: text.slice(opening.payloadStart, end),
      after: closing,
    });
    plain = '';
    at = end + closing.length;
  }
  found.push({ before: plain + text.slice(at), payload: '', after: '' });
  return found;
}

/** The largest per-payload length whose payloads, each cut to it, sum to at most `room`. */
function waterLevel(lengths: readonly number[], room: number): number {
  const sorted = [...lengths].sort((a, b) => a - b);
  let used = 0;
  for (let i = 0; i < sorted.length; i += 1) {
    const length = sorted[i] ?? 0;
    const left = sorted.length - i;
    if (used + length * left > room) return Math.floor((room - used) / left);
    used += length;
  }
  return Number.MAX_SAFE_INTEGER;
}

/** `text` at most `maxChars` long, cut as the module comment says. */
export function fitResultText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const parts = segments(text);
  const overhead =
    parts?.reduce((sum, part) => sum + part.before.length + part.after.length, 0) ?? Infinity;
  if (parts === undefined || overhead >= maxChars) return leftOut(text.length);
  const level = waterLevel(
    parts.map((part) => part.payload.length),
    maxChars - overhead,
  );
  return parts
    .map(
      (part) =>
        part.before +
        (part.payload.length > level ? capText(part.payload, level).text : part.payload) +
        part.after,
    )
    .join('');
}

function leftOut(chars: number): string {
  return `[Switchyard: this result (${String(chars)} characters) was left out: it does not fit in what is left of the model's context window. Ask the tool for less: a narrower query, fewer rows, a page.]`;
}
