import type { Profile, TokenBudget, ToolSearchState } from '../../protocol/profiles';
import type { ToolPolicyState } from '../../protocol/tools';
import type { ListedTool, ToolListing } from './tool-listing';
import { budgetReport } from '../profiles/budget';
import { toolSearchState } from '../profiles/search-mode';
import { modelMayCall } from './tool-listing';

/**
 * One profile's view of the model-facing listing (design D10, D11): the tools it shows, each with
 * its policy under the profile, their token totals and the budget report. Pure: built from the
 * host's one listing (exposed names are the same under every profile, so a transcript and an
 * approval mean the same tool whichever profile is active).
 */

export interface ProfileListing {
  /** Shown tools, sorted by exposed name, with `exposed.policy` as it is under the profile. */
  readonly tools: readonly ListedTool[];
  readonly byName: ReadonlyMap<string, ListedTool>;
  /** What the model is sent under the profile: denied tools never count. */
  readonly tokens: { readonly total: number; readonly byServer: Readonly<Record<string, number>> };
  /** Against the profile's `tokenBudget`; undefined when it has none. */
  readonly budget: TokenBudget | undefined;
  /** While tool search mode is on for the profile (docs/decisions/0027); else undefined. */
  readonly search: ToolSearchState | undefined;
}

export interface ProfileListingInput {
  readonly listing: ToolListing;
  /** The configured servers the profile enables, in configuration order (each gets a total). */
  readonly servers: readonly string[];
  /** Whether the profile shows this tool (server, filters, mode). */
  readonly shows: (listed: ListedTool) => boolean;
  /** The tool's policy under the profile; undefined when the profile changes no policy. */
  readonly policyOf: ((listed: ListedTool) => ToolPolicyState) | undefined;
  readonly tokenBudget: number | undefined;
  /** The profile's tool search setting and pins; omitted: `auto`, nothing pinned. */
  readonly toolSearch?: Pick<Profile, 'toolSearch' | 'pinnedTools'>;
}

export function buildProfileListing(input: ProfileListingInput): ProfileListing {
  const byServer: Record<string, number> = {};
  for (const server of input.servers) byServer[server] = 0;
  const tools: ListedTool[] = [];
  let total = 0;
  for (const listed of input.listing.tools) {
    if (!input.shows(listed)) continue;
    const policy = input.policyOf?.(listed) ?? listed.exposed.policy;
    const shown =
      policy === listed.exposed.policy
        ? listed
        : { ...listed, exposed: { ...listed.exposed, policy } };
    tools.push(shown);
    if (policy === 'deny' || !modelMayCall(listed.exposed.ui)) continue;
    byServer[listed.server] = (byServer[listed.server] ?? 0) + listed.exposed.tokens;
    total += listed.exposed.tokens;
  }
  const sent = tools
    .filter((t) => t.exposed.policy !== 'deny' && modelMayCall(t.exposed.ui))
    .map((t) => ({ name: t.exposed.name, server: t.server, tokens: t.exposed.tokens }));
  const budget =
    input.tokenBudget === undefined ? undefined : budgetReport(input.tokenBudget, sent);
  return {
    tools,
    byName: new Map(tools.map((t) => [t.exposed.name, t])),
    tokens: { total, byServer },
    budget,
    search: toolSearchState(input.toolSearch ?? {}, budget, sent),
  };
}
