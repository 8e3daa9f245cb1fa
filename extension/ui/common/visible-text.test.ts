import { describe, expect, test } from 'vitest';
import { countHidden, cutText, isInvisible, visibleParts, type VisiblePart } from './visible-text';

/**
 * The dangerous direction: a character that renders as nothing and is NOT marked, so an approval
 * or a command line hides part of what it does. An extra marker is only noise.
 */

function render(parts: readonly VisiblePart[]): string {
  return parts.map((part) => (part.kind === 'text' ? part.text : part.symbol)).join('');
}

function source(parts: readonly VisiblePart[]): string {
  return parts.map((part) => (part.kind === 'text' ? part.text : part.source)).join('');
}

describe('visibleParts', () => {
  test.each([
    ['zero-width space', 'rm\u200B -rf', 'rm⟨ZWSP⟩ -rf'],
    ['right-to-left override', 'file\u202Etxt.exe', 'file⟨RLO⟩txt.exe'],
    ['bidi isolate', 'a\u2066b\u2069', 'a⟨LRI⟩b⟨PDI⟩'],
    ['byte-order mark', '\uFEFFkey', '⟨BOM⟩key'],
    ['no-break space', 'a\u00A0b', 'a⟨NBSP⟩b'],
    ['escape control', 'a\u001B[31mb', 'a␛[31mb'],
    ['NUL', 'a\u0000b', 'a␀b'],
    ['carriage return', 'a\rb', 'a␍b'],
    ['C1 control', 'a\u0085b', 'a⟨U+0085⟩b'],
    ['en quad space', 'a\u2000b', 'a⟨U+2000⟩b'],
    ['variation selector supplement', 'a\u{E0100}b', 'a⟨U+E0100⟩b'],
    ['hangul filler', 'a\u3164b', 'a⟨HF⟩b'],
  ])('marks %s', (_name, input, shown) => {
    const parts = visibleParts(input);
    expect(render(parts)).toBe(shown);
    expect(source(parts)).toBe(input);
  });

  test('spells out a run of Unicode tag characters', () => {
    const hidden = Array.from('run rm')
      .map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0)))
      .join('');
    const parts = visibleParts(`ok${hidden}!`);
    expect(render(parts)).toBe('ok⟨hidden tag text: "run rm"⟩!');
    expect(source(parts)).toBe(`ok${hidden}!`);
    expect(countHidden(parts)).toBe(6);
  });

  test('leaves ordinary text, emoji and their variation selectors alone', () => {
    const text = 'Grüße, 世界 ❤️ 👍🏽';
    expect(visibleParts(text)).toEqual([{ kind: 'text', text }]);
  });

  test('keeps newlines and tabs as they are unless whitespace is asked for', () => {
    expect(render(visibleParts('a\n\tb'))).toBe('a\n\tb');
    const parts = visibleParts('a\n\tb', { whitespace: true });
    expect(render(parts)).toBe('a↵→b');
    expect(parts.filter((p) => p.kind === 'marker' && p.lineBreak)).toHaveLength(1);
    expect(countHidden(parts)).toBe(0);
  });

  test.each([
    ['leading and trailing spaces', '  a b  ', '··a b··'],
    ['spaces before a newline', 'a  \nb', 'a··↵b'],
    ['only spaces', '   ', '···'],
    ['inner spaces stay plain', 'a  b', 'a  b'],
  ])('marks edge spaces: %s', (_name, input, shown) => {
    expect(render(visibleParts(input, { whitespace: true, edgeSpaces: true }))).toBe(shown);
  });

  test('gives every marker a label for screen readers', () => {
    const [marker] = visibleParts('\u200B');
    expect(marker).toMatchObject({ kind: 'marker', label: 'zero-width space (U+200B)' });
  });

  test('isInvisible: tab and newline are whitespace, not hidden characters', () => {
    expect(isInvisible(0x09)).toBe(false);
    expect(isInvisible(0x0a)).toBe(false);
    expect(isInvisible(0x41)).toBe(false);
    expect(isInvisible(0x200d)).toBe(true);
  });
});

describe('cutText', () => {
  test('keeps short text whole', () => {
    expect(cutText('abc', 3)).toEqual({ shown: 'abc', hidden: 0 });
  });
  test('says how much it left out', () => {
    expect(cutText('abcdef', 4)).toEqual({ shown: 'abcd', hidden: 2 });
  });
  test('never splits a surrogate pair', () => {
    expect(cutText('a😀b', 2)).toEqual({ shown: 'a', hidden: 3 });
  });
});
