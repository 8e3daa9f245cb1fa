import { describe, expect, it, test } from 'vitest';
import type { TokenBudget } from '../../../protocol/profiles';
import { budgetView, toolSearchNotice } from './budget-advice';

// The dangerous direction is advice that claims to be enough when it is not: the user follows it
// and every turn still overruns. The host picks the suggestions; these tests pin their wording.

const over: TokenBudget = {
  limit: 1600,
  used: 2600,
  headroom: -1000,
  over: true,
  suggestions: [
    { kind: 'tool', server: 'fs', tool: 'fs__read', saves: 300 },
    { kind: 'server', server: 'gh', saves: 2000 },
  ],
};

describe('budget', () => {
  it('says how much is left', () => {
    expect(
      budgetView({ limit: 3000, used: 2600, headroom: 400, over: false, suggestions: [] }),
    ).toEqual({
      over: false,
      summary: 'Tools use 2,600 tokens of a budget of 3,000 tokens (400 tokens left).',
      suggestions: [],
      total: null,
    });
  });

  it('names what to disable and by how much, largest saving first', () => {
    expect(budgetView(over)).toEqual({
      over: true,
      summary: 'Tools use 2,600 tokens, 1,000 tokens over a budget of 1,600 tokens.',
      suggestions: [
        'Disable server gh in this profile (saves 2,000 tokens).',
        'Exclude tool fs__read from this profile (saves 300 tokens).',
      ],
      total: 'Together these save 2,300 tokens.',
    });
  });

  it('says when the suggestions are not enough', () => {
    const view = budgetView({
      ...over,
      suggestions: [{ kind: 'server', server: 'gh', saves: 10 }],
    });
    expect(view.total).toBe('Together these save 10 tokens, not enough: also raise the budget.');
  });

  it('says when there is nothing to suggest', () => {
    expect(budgetView({ ...over, suggestions: [] }).total).toMatch(/raise the budget/);
  });
});

describe('toolSearchNotice', () => {
  test.each([
    [undefined, null],
    [
      { reason: 'over-budget' as const, pinned: ['a__b'], tokens: 200 },
      'Tool search is on because the tools are over the budget: the model gets a search tool and 1 pinned tool (200 tokens a turn) and finds the others by search.',
    ],
    [
      { reason: 'setting' as const, pinned: [], tokens: 90 },
      'Tool search is on because the profile says so: the model gets a search tool and no pinned tools (90 tokens a turn) and finds the others by search.',
    ],
  ])('%j -> %s', (search, text) => {
    expect(toolSearchNotice(search)).toBe(text);
  });
});
