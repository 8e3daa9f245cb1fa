import { describe, expect, test } from 'vitest';
import { isVariableName, keyProblem, variableKey } from './keys';

// Dangerous direction: a key accepted with a newline or control character in it, which could
// forge a line of a store's listing or a consent text.
describe('keyProblem', () => {
  test.each([
    ['var:GITHUB_TOKEN', undefined],
    ['var:_x1', undefined],
    ['oauth:my server:tokens', undefined],
    ['oauth:ünïcode:client', undefined],
    ['', /empty/],
    ['GITHUB_TOKEN', /namespaced/],
    ['var:', /namespaced/],
    ['var:1ABC', /does not name a variable/],
    ['var:A-B', /does not name a variable/],
    ['var:A\nattribute.key = var:B', /control or invisible/],
    ['oauth:a\u0000b:tokens', /control or invisible/],
    ['oauth:a\u202eb:tokens', /control or invisible/],
    ['oauth:a\u200bb:tokens', /control or invisible/],
    [`oauth:${'x'.repeat(300)}`, /at most 256/],
    ['__proto__', /namespaced/],
  ])('%j', (key, expected) => {
    const problem = keyProblem(key);
    if (expected === undefined) expect(problem).toBeUndefined();
    else expect(problem).toMatch(expected);
  });
});

describe('isVariableName', () => {
  test.each([
    ['GITHUB_TOKEN', true],
    ['_', true],
    ['a1', true],
    ['1a', false],
    ['A B', false],
    ['A=B', false],
    ['', false],
    ['Ä', false],
    ['X'.repeat(252), true],
    ['X'.repeat(253), false],
  ])('%j -> %s', (name, expected) => {
    expect(isVariableName(name)).toBe(expected);
  });

  test('variableKey namespaces the name', () => {
    expect(variableKey('TOKEN')).toBe('var:TOKEN');
  });
});
