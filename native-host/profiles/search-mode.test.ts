import { describe, expect, test } from 'vitest';
import type { TokenBudget } from '../../protocol/profiles';
import { budgetReport, type CostedTool } from './budget';
import { SEARCH_TOOLS_TOKENS, toolSearchState } from './search-mode';

// The dangerous direction is a mode that stays off while the listing is over budget (every turn
// pays for every tool), or a pin that offers a tool the profile does not show: pins only select
// among the tools the profile already sends, so they can never widen it.

const sent: CostedTool[] = [
  { name: 'github__create_issue', server: 'github', tokens: 300 },
  { name: 'github__list_issues', server: 'github', tokens: 200 },
  { name: 'fs__read_file', server: 'fs', tokens: 100 },
];
const over: TokenBudget = budgetReport(500, sent);
const under: TokenBudget = budgetReport(5_000, sent);

describe('toolSearchState', () => {
  test.each([
    ['absent, over budget', {}, over, 'over-budget'],
    ['auto, over budget', { toolSearch: 'auto' as const }, over, 'over-budget'],
    ['auto, under budget', { toolSearch: 'auto' as const }, under, undefined],
    ['auto, no budget', { toolSearch: 'auto' as const }, undefined, undefined],
    ['on, under budget', { toolSearch: 'on' as const }, under, 'setting'],
    ['on, no budget', { toolSearch: 'on' as const }, undefined, 'setting'],
    ['off, over budget', { toolSearch: 'off' as const }, over, undefined],
  ])('%s -> %s', (_label, profile, budget, reason) => {
    expect(toolSearchState(profile, budget, sent)?.reason).toBe(reason);
  });

  test('pins select among the sent tools, sorted, and their tokens count', () => {
    const state = toolSearchState(
      { pinnedTools: ['github__*', 'shop__*', 'fs__read_file'] },
      over,
      sent,
    );
    expect(state).toEqual({
      reason: 'over-budget',
      pinned: ['fs__read_file', 'github__create_issue', 'github__list_issues'],
      tokens: SEARCH_TOOLS_TOKENS + 600,
    });
  });

  test('no pins: only search_tools is offered', () => {
    expect(toolSearchState({ toolSearch: 'on' }, undefined, sent)).toEqual({
      reason: 'setting',
      pinned: [],
      tokens: SEARCH_TOOLS_TOKENS,
    });
    expect(SEARCH_TOOLS_TOKENS).toBeGreaterThan(20);
    expect(SEARCH_TOOLS_TOKENS).toBeLessThan(150);
  });
});
