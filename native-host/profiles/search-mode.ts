import { globMatches } from '../../protocol/glob-match';
import type { Profile, TokenBudget, ToolSearchState } from '../../protocol/profiles';
import { estimateToolTokens } from '../../protocol/token-estimate';
import { SEARCH_TOOLS_DEFINITION } from '../../protocol/tool-search';
import type { CostedTool } from './budget';

/**
 * Whether tool search mode is on for a profile, and what the model is offered then
 * (docs/decisions/0027). Pure. `auto` follows the budget report, so the mode turns on exactly
 * when the popup says the profile is over, and off again once it is not.
 */

/** Tokens the `search_tools` definition adds to every turn in search mode. */
export const SEARCH_TOOLS_TOKENS = estimateToolTokens(SEARCH_TOOLS_DEFINITION);

export function toolSearchState(
  profile: Pick<Profile, 'toolSearch' | 'pinnedTools'>,
  budget: TokenBudget | undefined,
  sent: readonly CostedTool[],
): ToolSearchState | undefined {
  const setting = profile.toolSearch ?? 'auto';
  const reason =
    setting === 'on'
      ? 'setting'
      : setting === 'auto' && budget?.over === true
        ? 'over-budget'
        : undefined;
  if (reason === undefined) return undefined;
  const globs = profile.pinnedTools ?? [];
  const pinned = sent.filter((tool) => globs.some((glob) => globMatches(glob, tool.name)));
  return {
    reason,
    pinned: pinned.map((tool) => tool.name).sort(),
    tokens: pinned.reduce((sum, tool) => sum + tool.tokens, SEARCH_TOOLS_TOKENS),
  };
}
