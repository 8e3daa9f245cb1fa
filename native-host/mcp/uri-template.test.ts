import { describe, expect, it } from 'vitest';
import { MAX_TEMPLATE_VARIABLES, expandTemplate, templateVariables } from './uri-template';

describe('templateVariables', () => {
  it.each([
    ['one simple variable', 'demo://resource/dynamic/text/{resourceId}', ['resourceId']],
    ['reserved and query expansions', 'file:///{+path}{?q,lang}', ['path', 'q', 'lang']],
    ['a variable used twice, listed once', 'x://{a}/{a}/{b}', ['a', 'b']],
    ['no variables: a plain URI', 'x://fixed', []],
    // The SDK reads a prefix modifier as part of the name; a server on the SDK matches it so.
    ['a prefix modifier, as the SDK reads it', 'x://{name:3}', ['name:3']],
  ])('%s', (_, template, expected) => {
    expect(templateVariables(template)).toEqual(expected);
  });

  it.each([
    ['an unclosed expression', 'x://{a'],
    [
      'more variables than a form shows',
      `x://${Array.from({ length: MAX_TEMPLATE_VARIABLES + 1 }, (_, i) => `{v${i}}`).join('/')}`,
    ],
  ])('refuses %s', (_, template) => {
    expect(templateVariables(template)).toBeUndefined();
  });
});

describe('expandTemplate', () => {
  it.each([
    [
      'percent-encodes a simple value, slashes included',
      'demo://resource/dynamic/text/{resourceId}',
      { resourceId: 'a b/c' },
      'demo://resource/dynamic/text/a%20b%2Fc',
    ],
    [
      'keeps reserved characters for {+var}',
      'file:///{+path}',
      { path: 'home/me/notes.md' },
      'file:///home/me/notes.md',
    ],
    ['a plain URI is itself', 'x://fixed', {}, 'x://fixed'],
  ])('%s', (_, template, values, uri) => {
    expect(expandTemplate(template, values, 8192)).toEqual({ ok: true, uri });
  });

  it.each([
    ['a blank variable', 'x://{a}/{b}', { a: '1', b: '  ' }, /Fill in 'b'/],
    ['a missing variable', 'x://{a}/{b}', { a: '1' }, /Fill in 'b'/],
    ['a value for no variable', 'x://{a}', { a: '1', c: '2' }, /no variable 'c'/],
    ['a broken template', 'x://{a', { a: '1' }, /not a URI template/],
    ['a URI past the cap', 'x://{a}', { a: 'y'.repeat(50) }, /at most 20/],
  ])('refuses %s', (_, template, values, reason) => {
    const expansion = expandTemplate(template, values, 20);
    expect(expansion.ok).toBe(false);
    if (!expansion.ok) expect(expansion.reason).toMatch(reason);
  });
});
