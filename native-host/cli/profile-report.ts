import type { BudgetSuggestion } from '../../protocol/profiles';
import { table } from './io';
import type { ProfileCost } from '../host/core';

/**
 * The profiles section of `switchyard doctor` (design D11): what each profile's tool listing
 * costs, its budget and headroom, and, for a profile over its budget, what to disable. Pure.
 */

export interface ProfileReport {
  /** A table, or nothing when only the built-in default exists and it has no budget. */
  readonly text: string;
  /** One line per profile over its budget, with the removals that get it under. */
  readonly problems: string[];
  readonly json: ReadonlyArray<Record<string, unknown>>;
}

export function profileReport(costs: readonly ProfileCost[]): ProfileReport {
  const rows = [['PROFILE', 'MATCHES', 'MODE', 'TOOLS', 'TOKENS', 'BUDGET', 'HEADROOM']];
  const problems: string[] = [];
  for (const { profile, tools, tokens, budget } of costs) {
    rows.push([
      profile.id,
      profile.id === 'default' ? '(every other site)' : shownPatterns(profile.match),
      profile.mode,
      String(tools),
      String(tokens),
      budget === undefined ? '-' : String(budget.limit),
      budget === undefined ? '-' : `${budget.headroom}${budget.over ? '  OVER' : ''}`,
    ]);
    if (budget?.over === true) {
      problems.push(
        `profile '${profile.id}' is over its token budget by ${-budget.headroom} tokens (${budget.used} of ${budget.limit}): ${budget.suggestions.map(advice).join(', or also ')}.`,
      );
    }
  }
  const onlyBuiltIn = costs.length === 1 && costs[0]?.budget === undefined;
  return {
    text: onlyBuiltIn
      ? ''
      : `Profiles (tokens each sends with every model turn):\n${table(rows)}\n`,
    problems,
    json: costs.map(({ profile, tools, tokens, budget }) => ({
      id: profile.id,
      name: profile.name,
      tools,
      tokens,
      budget: budget ?? null,
    })),
  };
}

function advice(suggestion: BudgetSuggestion): string {
  return suggestion.kind === 'tool'
    ? `exclude ${suggestion.tool ?? suggestion.server} (saves ${suggestion.saves})`
    : `take server '${suggestion.server}' out of the profile (saves ${suggestion.saves})`;
}

function shownPatterns(patterns: readonly string[]): string {
  if (patterns.length === 0) return '(none)';
  const [first, ...rest] = patterns;
  return rest.length === 0 ? (first ?? '') : `${first ?? ''} (+${rest.length})`;
}
