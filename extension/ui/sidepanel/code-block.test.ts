import { describe, expect, test } from 'vitest';
import { MAX_LANGUAGE_CHARS, codeBlockParts, codeLanguage, type HastElement } from './code-block';

/**
 * The fence's info string is the model's text, and a page can steer the model. Dangerous
 * direction: markup, control or invisible characters reaching the label; a missing label for a
 * real language name only costs a hint.
 */

describe('codeLanguage', () => {
  test.each<[string, unknown, string | null]>([
    ['a plain name', ['language-ts'], 'ts'],
    ['c++', ['language-c++'], 'c++'],
    ['c#', ['language-c#'], 'c#'],
    ['dashes and dots', ['language-shell-session'], 'shell-session'],
    ['a dotfile', ['language-.env'], '.env'],
    ['a version', ['language-python3.12'], 'python3.12'],
    ['a string className', 'language-rust', 'rust'],
    ['after another class', ['hljs', 'language-go'], 'go'],
    ['no class', undefined, null],
    ['no language class', ['hljs'], null],
    ['an empty name', ['language-'], null],
    ['markup', ['language-<script>'], null],
    ['a quote', ['language-a"onmouseover=x'], null],
    ['a control character', ['language-py\u0007'], null],
    ['an escape sequence', ['language-\u001b[31m'], null],
    ['a zero-width space', ['language-py\u200b'], null],
    ['a bidi override', ['language-\u202Ejs'], null],
    ['a Cyrillic look-alike', ['language-jаva'], null],
    ['a number, not a string', [7], null],
  ])('%s', (_name, className, expected) => {
    expect(codeLanguage(className)).toBe(expected);
  });

  test('cuts a very long name with an ellipsis', () => {
    const label = codeLanguage([`language-${'a'.repeat(10_000)}`]);
    expect(label).toBe(`${'a'.repeat(MAX_LANGUAGE_CHARS - 1)}…`);
    expect(label?.length).toBe(MAX_LANGUAGE_CHARS);
  });

  test(`keeps a name of exactly ${MAX_LANGUAGE_CHARS} characters whole`, () => {
    const name = 'b'.repeat(MAX_LANGUAGE_CHARS);
    expect(codeLanguage([`language-${name}`])).toBe(name);
  });
});

function pre(children: HastElement['children']): HastElement {
  return { type: 'element', tagName: 'pre', properties: {}, children };
}

function code(className: string[] | undefined, children: HastElement['children']): HastElement {
  return {
    type: 'element',
    tagName: 'code',
    properties: className === undefined ? {} : { className },
    children,
  };
}

describe('codeBlockParts', () => {
  test('the language and the code without the line end remark-rehype adds', () => {
    const node = pre([code(['language-py'], [{ type: 'text', value: 'print(1)\nprint(2)\n' }])]);
    expect(codeBlockParts(node)).toEqual({ language: 'py', code: 'print(1)\nprint(2)' });
  });

  test('keeps blank lines the code itself ends with, less the one added', () => {
    const node = pre([code(undefined, [{ type: 'text', value: 'a\n\n\n' }])]);
    expect(codeBlockParts(node)).toEqual({ language: null, code: 'a\n\n' });
  });

  test('joins nested text and leaves comments out', () => {
    const node = pre([
      code(
        ['language-ts'],
        [
          { type: 'text', value: 'const ' },
          {
            type: 'element',
            tagName: 'span',
            properties: {},
            children: [{ type: 'text', value: 'x' }],
          },
          { type: 'comment', value: 'not code' },
          { type: 'text', value: ' = 1;\n' },
        ],
      ),
    ]);
    expect(codeBlockParts(node)).toEqual({ language: 'ts', code: 'const x = 1;' });
  });

  test('no node, or a <pre> without <code>: no label, the text as it is', () => {
    expect(codeBlockParts(undefined)).toEqual({ language: null, code: '' });
    expect(codeBlockParts(pre([{ type: 'text', value: 'bare' }]))).toEqual({
      language: null,
      code: 'bare',
    });
  });
});
