import { describe, expect, test } from 'vitest';
import { seededRandom } from '../../test/support/seeded-random';
import { formatJsonPath, lineColumn, positionsIn } from './json-format';
import type { JsonPath } from './json-format';

// Dangerous direction: a key shown with a character a terminal hides or acts on (a warning that
// names a different key than the file has). A column off by one only slows the reader down.

/** The rule read straight off, one character at a time from the start: what the index must match. */
function scanned(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let column = 1;
  for (let i = 0; i < Math.min(offset, text.length); i++) {
    const code = text.charCodeAt(i);
    const high = text.charCodeAt(i - 1);
    if (code === 0x0a || (code === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line++;
      column = 1;
    } else if (code === 0x0d) {
      // The CR of a CRLF pair: the LF that follows ends the line.
    } else if (code >= 0xdc00 && code <= 0xdfff && high >= 0xd800 && high <= 0xdbff) {
      // Second half of a surrogate pair: one code point, already counted.
    } else {
      column++;
    }
  }
  return { line, column };
}

describe('lineColumn counts lines and code points as an editor shows them', () => {
  test.each([
    ['abc', 2, 1, 3],
    ['a\nbc', 3, 2, 2],
    ['a\r\nbc', 4, 2, 2],
    ['a\r\n', 2, 1, 2], // between CR and LF: still on line 1
    ['a\rbc', 3, 2, 2],
    ['é😀x', 3, 1, 3], // the emoji is two UTF-16 units but one column
    ['\n\r\n\rx', 4, 4, 1],
  ])('%j at %i -> %i:%i', (text, offset, line, column) => {
    expect(lineColumn(text, offset)).toEqual({ line, column });
    expect(positionsIn(text)(offset)).toEqual({ line, column });
  });

  test('positionsIn answers as a scan from the start does, at every offset of seeded texts', () => {
    const random = seededRandom(15);
    const pieces = ['a', 'é', '😀', '\n', '\r', '\r\n', '\ud800', '\udc00', ' '];
    for (let round = 0; round < 200; round += 1) {
      const length = Math.floor(random() * 40);
      const text = Array.from({ length }, () => pieces[Math.floor(random() * pieces.length)]).join(
        '',
      );
      const at = positionsIn(text);
      for (let offset = -1; offset <= text.length + 1; offset += 1) {
        expect(at(offset), `${JSON.stringify(text)} at ${String(offset)}`).toEqual(
          scanned(text, offset),
        );
      }
    }
  });
});

test.each<[JsonPath, string]>([
  [[], ''],
  [['mcpServers', 'github', 'args', 2], 'mcpServers.github.args[2]'],
  [['mcpServers', 'my server', 'env', 'A=B'], 'mcpServers["my server"].env["A=B"]'],
  [['mcpServers', 'my-server_1'], 'mcpServers.my-server_1'],
  [['a.b'], '["a.b"]'],
  [['a\u202eb', 'c\n', '\u{f0000}'], '["a\\u202Eb"]["c\\n"]["\\u{F0000}"]'], // nothing a terminal hides
])('formatJsonPath(%j) = %s', (path, expected) => {
  expect(formatJsonPath(path)).toBe(expected);
});
