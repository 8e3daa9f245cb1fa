import type { ToolSearchState } from '../../protocol/profiles';
import {
  DEFAULT_SEARCH_RESULTS,
  MAX_QUERY_CHARS,
  SEARCH_TOOLS_DEFINITION,
  SEARCH_TOOLS_NAME,
  buildSearchIndex,
  searchResultText,
  searchTools,
  type ToolSearchIndex,
} from '../../protocol/tool-search';
import type { ToolOutcome } from '../messaging/agent-events';
import type { ToolSearchView } from '../messaging/ui-protocol';
import type { ToolSpec } from './tool-outcome';
import { wrapUntrusted, type RandomBytes } from './untrusted-text';

/**
 * Tool search mode in the worker (docs/decisions/0027). The host says when it is on and which
 * tools are pinned (`tools/list`'s `search`); the worker already holds the profile's whole
 * listing, so it searches that, with no frame and no round trip per query. A tool found here is
 * called by its exposed name like any other: the router sends it to the host, whose policy and
 * approvals decide the call exactly as for a listed tool.
 */

/** The meta-tool as the model is offered it: the extension's own, run here, never asked about. */
export const SEARCH_TOOLS_SPEC: ToolSpec = {
  name: SEARCH_TOOLS_NAME,
  description: SEARCH_TOOLS_DEFINITION.description,
  inputSchema: SEARCH_TOOLS_DEFINITION.inputSchema,
  source: { kind: 'builtin' },
};

/** What the model reads when it names a tool that is neither offered nor found. */
export const UNKNOWN_TOOL_IN_SEARCH_MODE = (name: string): string =>
  `There is no tool named '${name}' in this conversation. Only some tools are listed: call ${SEARCH_TOOLS_NAME} with what you need, then call a tool by the exact name it returns.`;

/** The MCP tools of one listing in search mode: what is offered up front, and the search. */
export class ToolSearchCatalog {
  private index: ToolSearchIndex | undefined;
  private readonly byName: ReadonlyMap<string, ToolSpec>;
  private readonly pinned: ReadonlySet<string>;
  /** Names found by searches since the listing, in the order found. */
  private readonly foundNames = new Set<string>();

  /** `tools`: every MCP tool the model may call under the profile (not denied, not app-only). */
  constructor(
    private readonly tools: readonly ToolSpec[],
    readonly state: ToolSearchState,
  ) {
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
    this.pinned = new Set(state.pinned.filter((name) => this.byName.has(name)));
  }

  view(): ToolSearchView {
    return { reason: this.state.reason, pinned: this.pinned.size, searchable: this.tools.length };
  }

  /** The MCP part of the listing the model is offered: `search_tools`, then the pinned tools. */
  offered(): ToolSpec[] {
    return [SEARCH_TOOLS_SPEC, ...this.tools.filter((tool) => this.pinned.has(tool.name))];
  }

  /** Tools the model found that were not offered up front: it is offered them from now on. */
  found(): ToolSpec[] {
    return [...this.foundNames].flatMap((name) => {
      const spec = this.byName.get(name);
      return spec === undefined ? [] : [spec];
    });
  }

  /** Runs one `search_tools` call. Never throws: bad arguments are an error the model reads. */
  search(args: Readonly<Record<string, unknown>>, random?: RandomBytes): ToolOutcome {
    const { query, limit } = args;
    if (typeof query !== 'string' || query.trim() === '') {
      return {
        status: 'error',
        content: `Not run: ${SEARCH_TOOLS_NAME} needs a "query": a few words saying what the tool should do.`,
      };
    }
    const count =
      typeof limit === 'number' && Number.isInteger(limit) ? limit : DEFAULT_SEARCH_RESULTS;
    this.index ??= buildSearchIndex(
      this.tools.map((tool) => ({
        name: tool.name,
        server: tool.source.kind === 'mcp' ? tool.source.server : '',
        tool: tool.source.kind === 'mcp' ? tool.source.tool : tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
      })),
    );
    const hits = searchTools(this.index, query, count).flatMap((hit) => {
      const spec = this.byName.get(hit.name);
      return spec === undefined ? [] : [spec];
    });
    for (const spec of hits) if (!this.pinned.has(spec.name)) this.foundNames.add(spec.name);
    const text = searchResultText(query.slice(0, MAX_QUERY_CHARS), hits, this.tools.length);
    // Names, descriptions and schemas are server-written (design D9): data, not instructions.
    const content =
      hits.length === 0
        ? text
        : wrapUntrusted(text, { server: 'switchyard', tool: SEARCH_TOOLS_NAME }, random);
    return { status: 'ok', content };
  }
}
