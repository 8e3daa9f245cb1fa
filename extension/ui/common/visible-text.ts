/**
 * Makes text from a model, a server or a page show everything it contains: characters that render
 * as nothing (zero-width, bidi controls, Unicode tags, control characters) or as an ordinary space
 * become visible markers, so an argument or a command line cannot hide a part from the person
 * approving it (design D9). Pure: the components in this folder render the parts.
 */

export type VisiblePart =
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'marker';
      /** What the marker shows, e.g. `⟨ZWSP⟩`, `↵`, `·`. */
      readonly symbol: string;
      /** What it stands for, for a tooltip and screen readers: "zero-width space (U+200B)". */
      readonly label: string;
      /** The characters it replaces. */
      readonly source: string;
      /** A real line break follows the marker (newlines, when whitespace is shown). */
      readonly lineBreak: boolean;
      /** An invisible or look-alike character, as opposed to shown whitespace. */
      readonly invisible: boolean;
    };

export interface VisibleTextOptions {
  /** Show newlines as `↵` (followed by a real line break) and tabs as `→`. */
  readonly whitespace?: boolean;
  /** Show spaces at the start and the end of the text, and before a newline, as `·`. */
  readonly edgeSpaces?: boolean;
}

/** Short names for the invisible or look-alike characters people are likely to meet. */
const NAMED: Readonly<Record<number, readonly [string, string]>> = {
  0x00a0: ['NBSP', 'no-break space'],
  0x00ad: ['SHY', 'soft hyphen'],
  0x034f: ['CGJ', 'combining grapheme joiner'],
  0x061c: ['ALM', 'Arabic letter mark'],
  0x115f: ['HF', 'Hangul choseong filler'],
  0x1160: ['HF', 'Hangul jungseong filler'],
  0x180e: ['MVS', 'Mongolian vowel separator'],
  0x200b: ['ZWSP', 'zero-width space'],
  0x200c: ['ZWNJ', 'zero-width non-joiner'],
  0x200d: ['ZWJ', 'zero-width joiner'],
  0x200e: ['LRM', 'left-to-right mark'],
  0x200f: ['RLM', 'right-to-left mark'],
  0x2028: ['LSEP', 'line separator'],
  0x2029: ['PSEP', 'paragraph separator'],
  0x202a: ['LRE', 'left-to-right embedding'],
  0x202b: ['RLE', 'right-to-left embedding'],
  0x202c: ['PDF', 'pop directional formatting'],
  0x202d: ['LRO', 'left-to-right override'],
  0x202e: ['RLO', 'right-to-left override'],
  0x202f: ['NNBSP', 'narrow no-break space'],
  0x205f: ['MMSP', 'medium mathematical space'],
  0x2060: ['WJ', 'word joiner'],
  0x2061: ['FA', 'function application'],
  0x2062: ['IT', 'invisible times'],
  0x2063: ['IS', 'invisible separator'],
  0x2064: ['IP', 'invisible plus'],
  0x2066: ['LRI', 'left-to-right isolate'],
  0x2067: ['RLI', 'right-to-left isolate'],
  0x2068: ['FSI', 'first strong isolate'],
  0x2069: ['PDI', 'pop directional isolate'],
  0x3000: ['IDSP', 'ideographic space'],
  0x3164: ['HF', 'Hangul filler'],
  0xfeff: ['BOM', 'zero-width no-break space'],
  0xffa0: ['HF', 'halfwidth Hangul filler'],
};

const TAG_FIRST = 0xe0000;
const TAG_LAST = 0xe007f;

function hex(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

function isTag(codePoint: number): boolean {
  return codePoint >= TAG_FIRST && codePoint <= TAG_LAST;
}

/** Whether a code point renders as nothing or as a plain-looking space (tabs and newlines aside). */
export function isInvisible(codePoint: number): boolean {
  if (codePoint === 0x09 || codePoint === 0x0a) return false;
  return (
    codePoint < 0x20 ||
    (codePoint >= 0x7f && codePoint <= 0x9f) ||
    Object.hasOwn(NAMED, codePoint) ||
    (codePoint >= 0x2000 && codePoint <= 0x200a) ||
    (codePoint >= 0x206a && codePoint <= 0x206f) ||
    (codePoint >= 0xfff9 && codePoint <= 0xfffb) ||
    isTag(codePoint) ||
    (codePoint >= 0xe0100 && codePoint <= 0xe01ef)
  );
}

function markerFor(codePoint: number, source: string): VisiblePart {
  const named = NAMED[codePoint];
  if (named !== undefined) {
    return {
      kind: 'marker',
      symbol: `⟨${named[0]}⟩`,
      label: `${named[1]} (${hex(codePoint)})`,
      source,
      lineBreak: false,
      invisible: true,
    };
  }
  if (codePoint < 0x20) {
    // Unicode's Control Pictures block: U+2400 + the control code (␀, ␍, ␛ ...).
    return {
      kind: 'marker',
      symbol: String.fromCodePoint(0x2400 + codePoint),
      label: `control character (${hex(codePoint)})`,
      source,
      lineBreak: false,
      invisible: true,
    };
  }
  if (codePoint === 0x7f) {
    return {
      kind: 'marker',
      symbol: '␡',
      label: 'delete (U+007F)',
      source,
      lineBreak: false,
      invisible: true,
    };
  }
  return {
    kind: 'marker',
    symbol: `⟨${hex(codePoint)}⟩`,
    label: `invisible character (${hex(codePoint)})`,
    source,
    lineBreak: false,
    invisible: true,
  };
}

/** A run of Unicode tag characters spells hidden ASCII: show what it says. */
function tagMarker(source: string): VisiblePart {
  let hidden = '';
  for (const char of source) {
    const codePoint = char.codePointAt(0) ?? 0;
    const ascii = codePoint - TAG_FIRST;
    hidden += ascii >= 0x20 && ascii < 0x7f ? String.fromCharCode(ascii) : '?';
  }
  return {
    kind: 'marker',
    symbol: `⟨hidden tag text: "${hidden}"⟩`,
    label: `${Array.from(source).length} invisible Unicode tag characters spelling "${hidden}"`,
    source,
    lineBreak: false,
    invisible: true,
  };
}

const SPACE_MARKER = (source: string): VisiblePart => ({
  kind: 'marker',
  symbol: '·',
  label: 'space',
  source,
  lineBreak: false,
  invisible: false,
});

/** Indexes (in code points) of spaces at the text's edges and before each newline. */
function edgeSpaceIndexes(chars: readonly string[]): Set<number> {
  const marked = new Set<number>();
  for (let i = 0; i < chars.length && chars[i] === ' '; i += 1) marked.add(i);
  for (let end = 0; end <= chars.length; end += 1) {
    if (end !== chars.length && chars[end] !== '\n') continue;
    for (let i = end - 1; i >= 0 && chars[i] === ' '; i -= 1) marked.add(i);
  }
  return marked;
}

/** Splits `text` into plain runs and visible markers. Concatenating every `source`/`text` gives `text` back. */
export function visibleParts(text: string, options: VisibleTextOptions = {}): VisiblePart[] {
  const chars = Array.from(text);
  const edges = options.edgeSpaces === true ? edgeSpaceIndexes(chars) : new Set<number>();
  const parts: VisiblePart[] = [];
  let plain = '';
  const flush = (): void => {
    if (plain !== '') parts.push({ kind: 'text', text: plain });
    plain = '';
  };
  for (let i = 0; i < chars.length; i += 1) {
    const char = chars[i] ?? '';
    const codePoint = char.codePointAt(0) ?? 0;
    if (isTag(codePoint)) {
      let run = char;
      while (i + 1 < chars.length && isTag(chars[i + 1]?.codePointAt(0) ?? 0)) {
        i += 1;
        run += chars[i] ?? '';
      }
      flush();
      parts.push(tagMarker(run));
    } else if (edges.has(i)) {
      flush();
      parts.push(SPACE_MARKER(char));
    } else if (char === '\n' && options.whitespace === true) {
      flush();
      parts.push({
        kind: 'marker',
        symbol: '↵',
        label: 'newline',
        source: char,
        lineBreak: true,
        invisible: false,
      });
    } else if (char === '\t' && options.whitespace === true) {
      flush();
      parts.push({
        kind: 'marker',
        symbol: '→',
        label: 'tab',
        source: char,
        lineBreak: false,
        invisible: false,
      });
    } else if (isInvisible(codePoint)) {
      flush();
      parts.push(markerFor(codePoint, char));
    } else {
      plain += char;
    }
  }
  flush();
  return parts;
}

/** How many invisible characters `parts` reveal (whitespace markers not counted). */
export function countHidden(parts: readonly VisiblePart[]): number {
  let count = 0;
  for (const part of parts) {
    if (part.kind === 'marker' && part.invisible) count += Array.from(part.source).length;
  }
  return count;
}

/**
 * The first `limit` UTF-16 units of `text`, never splitting a surrogate pair, and how many
 * characters were left out (for an "expand to full N characters" control).
 */
export function cutText(
  text: string,
  limit: number,
): { readonly shown: string; readonly hidden: number } {
  if (text.length <= limit) return { shown: text, hidden: 0 };
  let end = Math.max(0, limit);
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return { shown: text.slice(0, end), hidden: text.length - end };
}
