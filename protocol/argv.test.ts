import { describe, expect, it, test } from 'vitest';
import { seededRandom } from '../test/support/seeded-random';
import { formatCommandLine, parseCommandLine } from './argv';

// The dangerous direction is a split that differs from what the user read: an argument that
// silently merges with the next, a `$VAR` or `~` that expands into something never shown, or a
// half-quoted line that runs anyway. Refusing a line is loud and gets fixed.

const split: ReadonlyArray<readonly [string, string, readonly string[]]> = [
  [
    'the issue example: a folder with a space',
    'npx -y @modelcontextprotocol/server-filesystem "/Users/me/My Documents"',
    ['npx', '-y', '@modelcontextprotocol/server-filesystem', '/Users/me/My Documents'],
  ],
  ['plain words', 'node server.js --port 3000', ['node', 'server.js', '--port', '3000']],
  ['runs of whitespace count once', '  a \t\t b\n\nc  ', ['a', 'b', 'c']],
  ['an empty line', '', []],
  ['only whitespace', ' \t\r\n ', []],
  ['single quotes are literal', `'a "b" \\c $HOME'`, ['a "b" \\c $HOME']],
  ['a backslash cannot close single quotes', `'C:\\dir\\' next`, ['C:\\dir\\', 'next']],
  ['double quotes: escaped quote', '"say \\"hi\\""', ['say "hi"']],
  ['double quotes: escaped backslash', '"a\\\\b"', ['a\\b']],
  ['double quotes: other backslashes stay', '"C:\\Users\\me"', ['C:\\Users\\me']],
  ['double quotes keep single quotes', `"it's"`, ["it's"]],
  ['a Windows path survives unquoted', 'C:\\Users\\me\\server.exe', ['C:\\Users\\me\\server.exe']],
  ['a backslash escapes a space', 'My\\ Documents', ['My Documents']],
  ['a backslash escapes a double quote', 'say\\"hi', ['say"hi']],
  ['a backslash escapes a single quote', "it\\'s", ["it's"]],
  [
    'a backslash escapes a backslash (so quote UNC paths)',
    '\\\\server\\share',
    ['\\server\\share'],
  ],
  ['a quoted UNC path', `'\\\\server\\share'`, ['\\\\server\\share']],
  ['a trailing backslash is literal', 'dir\\', ['dir\\']],
  ['adjacent pieces join', `--dir="a b"'c d'e`, ['--dir=a bc de']],
  ['an empty argument', 'a "" b', ['a', '', 'b']],
  ['an empty single-quoted argument', "a '' b", ['a', '', 'b']],
  ['an empty quote inside a word adds nothing', 'a""b', ['ab']],
  ['two empty arguments', '"" ""', ['', '']],
  [
    'no variable expansion',
    'echo $HOME ${TOKEN} %APPDATA%',
    ['echo', '$HOME', '${TOKEN}', '%APPDATA%'],
  ],
  ['no tilde expansion', '~/bin/server ~', ['~/bin/server', '~']],
  ['no globbing', 'ls *.js ?', ['ls', '*.js', '?']],
  [
    'no shell operators',
    'a; rm -rf / && b | c > d',
    ['a;', 'rm', '-rf', '/', '&&', 'b', '|', 'c', '>', 'd'],
  ],
  ['no command substitution', 'echo `id` $(id)', ['echo', '`id`', '$(id)']],
  [
    'unicode kept',
    'node "/Users/José/Документы/服务器.js" 🚀',
    ['node', '/Users/José/Документы/服务器.js', '🚀'],
  ],
  ['a no-break space separates', 'npx\u00a0-y', ['npx', '-y']],
  ['a quoted no-break space is kept', '"a\u00a0b"', ['a\u00a0b']],
  ['newlines inside quotes are kept', '"a\nb"', ['a\nb']],
  ['control characters other than NUL are kept', 'a\u0001b', ['a\u0001b']],
  ['bidi characters are kept (the card shows them)', 'a\u202eb', ['a\u202eb']],
];

describe('parseCommandLine', () => {
  test.each(split)('%s', (_label, text, argv) => {
    expect(parseCommandLine(text)).toEqual({ ok: true, argv });
  });
});

const refused: ReadonlyArray<readonly [string, string, number, RegExp]> = [
  ['an unclosed double quote', 'npx "/Users/me/My Documents', 4, /double quote at position 5/],
  ['an unclosed single quote', "npx 'abc", 4, /single quote at position 5/],
  ['an escaped closing quote', '"abc\\"', 0, /double quote at position 1/],
  ['a lone quote at the end', 'a "', 2, /double quote at position 3/],
  ['a single quote inside a double-quoted part is not a closer', `"it's`, 0, /double quote/],
  ['a NUL outside quotes', 'a\u0000b', 1, /NUL character at position 2/],
  ['a NUL inside double quotes', '"a\u0000"', 2, /NUL character at position 3/],
  ['a NUL inside single quotes', "'a\u0000'", 2, /NUL character at position 3/],
  ['positions count characters, not UTF-16 units', '🚀 "x', 3, /position 3/],
];

describe('parseCommandLine refuses', () => {
  test.each(refused)('%s', (_label, text, index, message) => {
    const parsed = parseCommandLine(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.index).toBe(index);
    expect(parsed.error).toMatch(message);
  });
});

const formatted: ReadonlyArray<readonly [string, readonly string[], string]> = [
  ['plain words stay bare', ['npx', '-y', '@scope/pkg'], 'npx -y @scope/pkg'],
  ['a space is single-quoted', ['/Users/me/My Documents'], "'/Users/me/My Documents'"],
  ['an empty argument', ['a', '', 'b'], "a '' b"],
  ['a single quote uses double quotes', ["it's"], `"it's"`],
  ['both quotes', [`it's "x"`], `"it's \\"x\\""`],
  ['a Windows path stays bare', ['C:\\Users\\me'], 'C:\\Users\\me'],
  ['a trailing backslash is quoted', ['C:\\dir\\'], `'C:\\dir\\'`],
  ['a double backslash is quoted', ['\\\\server\\share'], `'\\\\server\\share'`],
  ['variables stay as written', ['$HOME', '${X}'], '$HOME ${X}'],
  ['nothing at all', [], ''],
];

describe('formatCommandLine', () => {
  test.each(formatted)('%s', (_label, argv, text) => {
    expect(formatCommandLine(argv)).toBe(text);
    expect(parseCommandLine(text)).toEqual({ ok: true, argv });
  });

  it('reads back as the same arguments, for 5,000 random argument lists', () => {
    const random = seededRandom(0x5eed);
    // Every character the parser treats specially, plus ordinary and non-ASCII ones.
    const alphabet = [...Array.from('ab Z09-=/.:\\\'"$~*\t\n\u00a0é文🚀'), '\u202e'];
    const pick = (n: number) => Math.floor(random() * n);
    for (let run = 0; run < 5_000; run += 1) {
      const argv = Array.from({ length: pick(5) }, () =>
        Array.from({ length: pick(8) }, () => alphabet[pick(alphabet.length)]).join(''),
      );
      const line = formatCommandLine(argv);
      expect(parseCommandLine(line), JSON.stringify(argv)).toEqual({ ok: true, argv });
    }
  });
});
