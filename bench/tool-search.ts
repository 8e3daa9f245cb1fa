import { performance } from 'node:perf_hooks';
import { buildProfileListing } from '../native-host/host/profile-listing';
import { buildToolListing, type ServerTools } from '../native-host/host/tool-listing';
import type { ToolDefinition } from '../native-host/shared/tool-definition';
import { estimateTokens } from '../protocol/token-estimate';
import {
  DEFAULT_SEARCH_RESULTS,
  buildSearchIndex,
  searchResultText,
  searchTools,
} from '../protocol/tool-search';

/**
 * Tool search mode's token economy (issue 15 item 5, docs/decisions/0027): what the model is sent
 * per turn for 10, 100 and 1,000 tools with every tool listed and in search mode, through the
 * host's own listing code (sanitize, minify, estimate, profile view, budget, search state) over
 * generated tool definitions shaped like real ones. Deterministic: no servers, no clock in the
 * figures but the ranking time.
 */

export const TOOL_COUNTS = [10, 100, 1_000] as const;
/** The budget of the measured profile: about 25 tools' worth, so 10 tools fit and 100 do not. */
export const BENCH_TOKEN_BUDGET = 4_000;
const PINNED = ['srv00__get_record', 'srv00__list_records'];

const VERBS = [
  'get',
  'list',
  'create',
  'update',
  'delete',
  'search',
  'export',
  'sync',
  'archive',
  'count',
];
const NOUNS = [
  'record',
  'issue',
  'file',
  'invoice',
  'customer',
  'order',
  'ticket',
  'page',
  'event',
  'report',
];

function definition(verb: string, noun: string, server: number): ToolDefinition {
  const thing = `${noun}s`;
  return {
    name: `${verb}_${verb === 'list' || verb === 'count' ? thing : noun}`,
    title: undefined,
    description: `${verb[0]?.toUpperCase() ?? ''}${verb.slice(1)} ${thing} in workspace ${server}. Returns the matching ${thing} as JSON with their ids, owners and timestamps; fails when the caller may not see them.`,
    inputSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        id: { type: 'string', description: `The ${noun} id, e.g. "${noun.slice(0, 3)}-1042"` },
        owner: { type: 'string', description: 'Only items of this owner' },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
        fields: { type: 'array', items: { type: 'string' }, description: 'Fields to return' },
      },
      required: verb === 'list' || verb === 'count' ? [] : ['id'],
      additionalProperties: false,
    },
    hints: {
      title: undefined,
      readOnlyHint: undefined,
      destructiveHint: undefined,
      idempotentHint: undefined,
      openWorldHint: undefined,
    },
  };
}

/** `count` tools over servers of 100 tools each (`srv00`, `srv01`, ...). */
export function syntheticServers(count: number): ServerTools[] {
  const servers: ServerTools[] = [];
  for (let i = 0; i < count; i += 1) {
    const server = Math.floor(i / 100);
    const name = `srv${String(server).padStart(2, '0')}`;
    let entry = servers.find((s) => s.server === name);
    if (entry === undefined) {
      entry = { server: name, prefix: undefined, tools: [] };
      servers.push(entry);
    }
    const local = i % 100;
    const tool = definition(
      VERBS[local % 10] ?? 'get',
      NOUNS[Math.floor(local / 10)] ?? 'record',
      server,
    );
    (entry.tools as ToolDefinition[]).push(tool);
  }
  return servers;
}

export interface ToolSearchRow {
  readonly tools: number;
  /** MCP listing tokens per turn with every tool sent. */
  readonly allListed: number;
  /** Whether the profile's `auto` setting turned search mode on (the listing is over budget). */
  readonly autoOn: boolean;
  /** MCP listing tokens per turn in search mode: `search_tools` and the pinned tools. */
  readonly searchMode: number;
  /** Tokens of one search's result (5 definitions), paid once in the conversation. */
  readonly searchResult: number;
  /** Median time to rank one query over the listing, microseconds. */
  readonly rankMicros: number;
}

const QUERIES = ['create invoice', 'delete a customer', 'export reports', 'sync tickets'];

export function toolSearchCost(): ToolSearchRow[] {
  return TOOL_COUNTS.map((count) => {
    const servers = syntheticServers(count);
    const listing = buildToolListing(servers, new Set(), () => 'ask');
    const view = (toolSearch: 'auto' | 'on') =>
      buildProfileListing({
        listing,
        servers: servers.map((s) => s.server),
        shows: () => true,
        policyOf: undefined,
        tokenBudget: BENCH_TOKEN_BUDGET,
        toolSearch: { toolSearch, pinnedTools: PINNED },
      });
    const auto = view('auto');
    const forced = view('on').search;
    const index = buildSearchIndex(listing.tools.map((t) => t.exposed));
    const byName = listing.byName;
    const found = searchTools(index, QUERIES[0] ?? '', DEFAULT_SEARCH_RESULTS).flatMap((hit) => {
      const listed = byName.get(hit.name);
      return listed === undefined ? [] : [listed.exposed];
    });
    const times: number[] = [];
    for (let round = 0; round < 50; round += 1) {
      const started = performance.now();
      searchTools(index, QUERIES[round % QUERIES.length] ?? '');
      times.push((performance.now() - started) * 1_000);
    }
    times.sort((a, b) => a - b);
    return {
      tools: count,
      allListed: auto.tokens.total,
      autoOn: auto.search !== undefined,
      searchMode: forced?.tokens ?? NaN,
      searchResult: estimateTokens(searchResultText(QUERIES[0] ?? '', found, count)),
      rankMicros: times[Math.floor(times.length / 2)] ?? NaN,
    };
  });
}

export function renderToolSearchCost(rows: readonly ToolSearchRow[]): string {
  const pad = (text: string | number, width: number) => String(text).padStart(width);
  const lines = [
    `Tool search mode: MCP listing tokens per turn (budget ${BENCH_TOKEN_BUDGET.toLocaleString('en-US')}, ${PINNED.length} pinned tools)`,
    `  ${pad('tools', 6)} ${pad('all listed', 11)} ${pad('auto', 5)} ${pad('search mode', 12)} ${pad('ratio', 7)} ${pad('1 search result', 16)} ${pad('rank (us)', 10)}`,
  ];
  for (const row of rows) {
    lines.push(
      `  ${pad(row.tools, 6)} ${pad(row.allListed, 11)} ${pad(row.autoOn ? 'on' : 'off', 5)} ${pad(row.searchMode, 12)} ${pad(`${(row.searchMode / row.allListed).toFixed(3)}x`, 7)} ${pad(row.searchResult, 16)} ${pad(row.rankMicros.toFixed(0), 10)}`,
    );
  }
  return lines.join('\n');
}
