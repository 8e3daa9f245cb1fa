import type { BudgetSuggestion, TokenBudget } from '../../protocol/profiles';
import { compareCodeUnits as compare } from '../shared/compare';

/**
 * A profile's token budget (design D11): what the model-facing listing costs against the limit
 * the user set, and, when it is over, the fewest removals that get it under. Pure.
 */

/** One tool the model is sent under the profile (denied tools are not sent and never count). */
export interface CostedTool {
  /** The exposed name. */
  readonly name: string;
  readonly server: string;
  readonly tokens: number;
}

/**
 * The budget report for `tools` against `limit`. Suggestions, only when over, in this order of
 * preference: one tool that alone covers the excess (the cheapest such tool, so the least is
 * lost); else one server that alone covers it (the cheapest such); else servers, largest first,
 * until the excess is covered (largest first needs the fewest). Ties go by name, so the answer is
 * the same for the same listing.
 */
export function budgetReport(limit: number, tools: readonly CostedTool[]): TokenBudget {
  const used = tools.reduce((sum, tool) => sum + tool.tokens, 0);
  const over = used > limit;
  return {
    limit,
    used,
    headroom: limit - used,
    over,
    suggestions: over ? suggestions(used - limit, tools) : [],
  };
}

function suggestions(excess: number, tools: readonly CostedTool[]): BudgetSuggestion[] {
  const byCost = (a: { tokens: number; name: string }, b: { tokens: number; name: string }) =>
    a.tokens - b.tokens || compare(a.name, b.name);

  const tool = [...tools].sort(byCost).find((t) => t.tokens >= excess);
  if (tool !== undefined) {
    return [{ kind: 'tool', server: tool.server, tool: tool.name, saves: tool.tokens }];
  }

  const totals = new Map<string, number>();
  for (const t of tools) totals.set(t.server, (totals.get(t.server) ?? 0) + t.tokens);
  const servers = [...totals].map(([name, tokens]) => ({ name, tokens })).sort(byCost);
  const one = servers.find((s) => s.tokens >= excess);
  if (one !== undefined) return [{ kind: 'server', server: one.name, saves: one.tokens }];

  const plan: BudgetSuggestion[] = [];
  let saved = 0;
  const largestFirst = [...servers].sort((a, b) => b.tokens - a.tokens || compare(a.name, b.name));
  for (const server of largestFirst) {
    if (saved >= excess) break;
    plan.push({ kind: 'server', server: server.name, saves: server.tokens });
    saved += server.tokens;
  }
  return plan;
}
