import { describe, expect, test } from 'vitest';
import {
  MAX_EXPOSED_NAME_CHARS,
  globMatchSteps,
  globMatches,
  globProblem,
  globSpecificity,
  isLiteralGlob,
  normalizeGlob,
} from './glob';
import { seededRandom as prng } from '../../test/support/seeded-random';

// Dangerous direction: a deny or ask pattern that fails to match a name it covers (the call runs
// unprompted under a broader allow), or an allow pattern that matches a name it does not cover.
// Both are the same bug, a wrong answer from globMatches, so it is checked against a reference.

/** Textbook dynamic-programming wildcard match: obviously right, too slow to ship for long input. */
function reference(pattern: string, name: string): boolean {
  // row[j]: pattern[0..i) matches name[0..j)
  let row = Array.from({ length: name.length + 1 }, (_, j) => j === 0);
  for (const p of pattern) {
    const next = Array.from({ length: name.length + 1 }, () => false);
    next[0] = p === '*' && row[0] === true;
    for (let j = 1; j <= name.length; j++) {
      next[j] =
        p === '*'
          ? row[j] === true || next[j - 1] === true
          : row[j - 1] === true && (p === '?' || p === name[j - 1]);
    }
    row = next;
  }
  return row[name.length] === true;
}

describe('globMatches', () => {
  test.each([
    ['*', 'github__search_issues', true],
    ['*', 'a', true],
    ['github__*', 'github__search_issues', true],
    ['github__*', 'github__', true],
    ['github__*', 'github_search', false],
    ['github__*', 'xgithub__search', false],
    ['*__delete*', 'gh__delete_repo', true],
    ['*__delete*', 'gh__undelete', false],
    ['*delete*', 'gh__undelete', true],
    ['gh__delete_repo', 'gh__delete_repo', true],
    ['gh__delete_repo', 'gh__delete_repos', false],
    ['gh__delete_repo', 'gh__delete_rep', false],
    ['gh__delete_repo', 'GH__delete_repo', false],
    ['GitHub__*', 'github__x', false],
    ['gh__?', 'gh__a', true],
    ['gh__?', 'gh__', false],
    ['gh__?', 'gh__ab', false],
    ['???', 'abc', true],
    ['???', 'ab', false],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'aXbYc', true],
    ['a*b*c', 'acb', false],
    ['a*a', 'a', false],
    ['a*a', 'aa', true],
    ['*a*', 'bbb', false],
    ['**', 'x', true],
    ['*?*', 'x', true],
    ['*?*', '', false],
    ['a?c*', 'abcdef', true],
    ['*-v2', 'srv__tool-v2', true],
    ['*_', 'srv__tool', false],
  ])('%s vs %s -> %s', (pattern, name, expected) => {
    expect(globMatches(pattern, name)).toBe(expected);
    expect(reference(pattern, name)).toBe(expected);
  });

  test('agrees with the reference matcher on 20,000 random pairs', () => {
    const random = prng(0x5eed);
    const pick = (alphabet: string) => alphabet[Math.floor(random() * alphabet.length)] ?? '';
    const make = (alphabet: string, max: number) =>
      Array.from({ length: Math.floor(random() * (max + 1)) }, () => pick(alphabet)).join('');
    const disagreements: [string, string][] = [];
    for (let i = 0; i < 20_000; i++) {
      // A tiny alphabet makes partial matches, the cases that break matchers, common.
      const pattern = make('ab_**??', 10);
      const name = make('ab_', 12);
      if (globMatches(pattern, name) !== reference(pattern, name)) {
        disagreements.push([pattern, name]);
      }
    }
    expect(disagreements).toEqual([]);
  });

  // Work is counted, not timed: a step is a position a piece is tried at or a character compared,
  // so the bound holds on any machine. A backtracking matcher needs exponentially many steps here.
  test('does linear work on patterns that make backtracking matchers explode', () => {
    const linear = (pattern: string, name: string) => {
      const { matches, steps } = globMatchSteps(pattern, name);
      expect(matches).toBe(globMatches(pattern, name));
      expect(steps).toBeLessThanOrEqual(2 * (pattern.length + name.length));
      return matches;
    };
    // Classic ReDoS shape: every `a` can go to any star, and the final `b` is never there.
    expect(globMatches('*a'.repeat(5_000) + '*b', 'a'.repeat(10_000))).toBe(false);
    expect(linear('*a'.repeat(5_000) + '*b', 'a'.repeat(10_000))).toBe(false);
    expect(globMatches('*'.repeat(100_000), 'a'.repeat(MAX_EXPOSED_NAME_CHARS))).toBe(true);
    expect(linear('*'.repeat(100_000), 'a'.repeat(MAX_EXPOSED_NAME_CHARS))).toBe(true);
    expect(globMatches('*a'.repeat(60) + '*', 'a'.repeat(59) + 'b'.repeat(5))).toBe(false);
    expect(linear('*a'.repeat(60) + '*', 'a'.repeat(59) + 'b'.repeat(5))).toBe(false);
    expect(globMatches('a*'.repeat(64), 'a'.repeat(64))).toBe(true);
    expect(linear('a*'.repeat(64), 'a'.repeat(64))).toBe(true);
    expect(globMatches('?*'.repeat(20_000), 'x'.repeat(64))).toBe(false);
    expect(linear('?*'.repeat(20_000), 'x'.repeat(64))).toBe(false);
    // The same shape with the `b` in a middle piece, so the last piece cannot reject it early.
    expect(linear('*a'.repeat(32) + '*b*', 'a'.repeat(64))).toBe(false);
  });

  test('never takes more than (|pattern| + 1) x (|name| + 1) steps', () => {
    const random = prng(0x57e9);
    const pick = (alphabet: string) => alphabet[Math.floor(random() * alphabet.length)] ?? '';
    const make = (alphabet: string, max: number) =>
      Array.from({ length: Math.floor(random() * (max + 1)) }, () => pick(alphabet)).join('');
    const over: [string, string, number][] = [];
    for (let i = 0; i < 5_000; i++) {
      const pattern = make('ab_**??', 16);
      const name = make('ab_', 20);
      const { steps } = globMatchSteps(pattern, name);
      if (steps > (pattern.length + 1) * (name.length + 1)) over.push([pattern, name, steps]);
    }
    expect(over).toEqual([]);
  });
});

describe('globProblem', () => {
  test.each(['*', 'github__*', 'gh__delete_repo', 'a?b', 'Srv-1__Tool_2', '*'.repeat(500)])(
    'accepts %s',
    (pattern) => {
      expect(globProblem(pattern)).toBeUndefined();
    },
  );

  test.each([
    ['', /empty/],
    ['github.*', /only contain letters/],
    ['github__ *', /only contain letters/],
    ['gh__[ab]', /only contain letters/],
    ['gh__\\*', /only contain letters/],
    ['gh__tööl', /only contain letters/],
    ['a'.repeat(MAX_EXPOSED_NAME_CHARS + 1), /matches no tool name/],
    ['?'.repeat(MAX_EXPOSED_NAME_CHARS + 1) + '*', /matches no tool name/],
  ])('rejects %j', (pattern, message) => {
    expect(globProblem(pattern)).toMatch(message);
  });

  test('a rejected pattern matches no legal name (so dropping it changes no decision)', () => {
    const names = ['a', 'github__x', 'a'.repeat(MAX_EXPOSED_NAME_CHARS), 'gh__ab', 'gh__tool'];
    for (const pattern of ['github.*', 'gh__[ab]', 'a'.repeat(65), '?'.repeat(65) + '*', '']) {
      for (const name of names) expect(globMatches(pattern, name)).toBe(false);
    }
  });
});

describe('normalizeGlob', () => {
  test.each([
    ['**', '*'],
    ['a***b**', 'a*b*'],
    ['*?*?*', '*?*?*'],
    ['abc', 'abc'],
  ])('%s -> %s', (pattern, expected) => {
    expect(normalizeGlob(pattern)).toBe(expected);
  });

  test('matches the same names', () => {
    for (const name of ['', 'a', 'ab', 'aXb', 'ba']) {
      expect(globMatches(normalizeGlob('a***b**'), name)).toBe(globMatches('a***b**', name));
    }
  });
});

describe('globSpecificity', () => {
  test.each([
    ['*', 0],
    ['???', 0],
    ['gh__*', 4],
    ['gh__delete*', 10],
    ['gh__delete_repo', 15],
    ['gh__?elete*', 9],
  ])('%s -> %i', (pattern, expected) => {
    expect(globSpecificity(pattern)).toBe(expected);
  });

  test('isLiteralGlob', () => {
    expect(isLiteralGlob('gh__delete_repo')).toBe(true);
    expect(isLiteralGlob('gh__*')).toBe(false);
    expect(isLiteralGlob('gh__?')).toBe(false);
  });
});
