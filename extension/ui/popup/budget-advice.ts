import type { BudgetSuggestion, TokenBudget, ToolSearchState } from '../../../protocol/profiles';
import { assertNever } from '../../../protocol/guards';

/**
 * Token-budget advice (design D11, issue 5): how the active profile's tool listing compares with
 * its budget and, when over, which servers and tools to switch off and how much each saves. The
 * host measures the listing and picks the suggestions (`tools/list` with a profile); this module
 * only words them, so the popup and `switchyard doctor` never disagree. Pure.
 */

function tokens(n: number): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? 'token' : 'tokens'}`;
}

/** One suggestion as a line: "disable server github (saves 2,000 tokens)". */
export function describeSuggestion(suggestion: BudgetSuggestion): string {
  switch (suggestion.kind) {
    case 'server':
      return `Disable server ${suggestion.server} in this profile (saves ${tokens(suggestion.saves)}).`;
    case 'tool':
      return `Exclude tool ${suggestion.tool ?? suggestion.server} from this profile (saves ${tokens(suggestion.saves)}).`;
    default:
      return assertNever(suggestion.kind, 'suggestion');
  }
}

export interface BudgetView {
  readonly over: boolean;
  /** "Tools use 2,600 tokens of a budget of 3,000 tokens (400 tokens left)." */
  readonly summary: string;
  /** When over: what to switch off, one line each, largest saving first. */
  readonly suggestions: readonly string[];
  /** When over: what the suggestions save together, or that none were found. */
  readonly total: string | null;
}

export function budgetView(budget: TokenBudget): BudgetView {
  if (!budget.over) {
    return {
      over: false,
      summary: `Tools use ${tokens(budget.used)} of a budget of ${tokens(budget.limit)} (${tokens(Math.max(0, budget.headroom))} left).`,
      suggestions: [],
      total: null,
    };
  }
  const excess = budget.used - budget.limit;
  const sorted = [...budget.suggestions].sort((a, b) => b.saves - a.saves);
  const saves = sorted.reduce((sum, suggestion) => sum + suggestion.saves, 0);
  return {
    over: true,
    summary: `Tools use ${tokens(budget.used)}, ${tokens(excess)} over a budget of ${tokens(budget.limit)}.`,
    suggestions: sorted.map(describeSuggestion),
    total:
      sorted.length === 0
        ? 'No set of servers or tools gets under it: raise the budget in the options.'
        : `Together these save ${tokens(saves)}${saves < excess ? `, not enough: also raise the budget` : ''}.`,
  };
}

/**
 * Tool search mode, when the host says it is on (docs/decisions/0027): what the model is offered
 * instead of the whole listing, and why. Null when off.
 */
export function toolSearchNotice(search: ToolSearchState | undefined): string | null {
  if (search === undefined) return null;
  const why =
    search.reason === 'over-budget' ? 'the tools are over the budget' : 'the profile says so';
  const pinned =
    search.pinned.length === 0
      ? 'no pinned tools'
      : search.pinned.length === 1
        ? '1 pinned tool'
        : `${search.pinned.length} pinned tools`;
  return `Tool search is on because ${why}: the model gets a search tool and ${pinned} (${tokens(search.tokens)} a turn) and finds the others by search.`;
}
