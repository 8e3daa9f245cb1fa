import type { Tool } from '@modelcontextprotocol/client';
import { estimateTokens } from '../protocol/token-estimate';
import type { ToolListingView } from './host-views';

/**
 * What the tool listings cost a model on every turn: each server's raw `tools/list` (what a naive
 * relay would forward) against the model-facing listing the host builds from it (namespaced name,
 * sanitized and capped description, input schema; no outputSchema, annotations or _meta). Both
 * sides are estimated with the host's own estimator, so the difference is the listing, not the
 * tokenizer.
 */

export interface ServerTokenCost {
  readonly server: string;
  readonly tools: number;
  /** Characters of the server's `tools/list` result JSON, as the direct SDK client received it. */
  readonly rawChars: number;
  /** Estimated tokens of the raw tool definitions, one JSON object per tool. */
  readonly rawTokens: number;
  /** Characters of `{name, description, input_schema}` per tool, as the host lists them. */
  readonly modelChars: number;
  /** The host's own figure (`tokens.byServer`). */
  readonly hostTokens: number;
}

export interface TokenCostResult {
  readonly servers: readonly ServerTokenCost[];
  readonly total: Omit<ServerTokenCost, 'server'>;
  /** The host's `tokens.total`. */
  readonly hostTotal: number;
  /** Characters of the host's whole `tools/list` reply to the extension (not model-facing). */
  readonly hostWireChars: number;
}

export function tokenCost(
  rawTools: Readonly<Record<string, readonly Tool[]>>,
  listing: ToolListingView,
  /** Characters of the host's `tools/list` reply as sent, all fields included. */
  hostWireChars: number,
): TokenCostResult {
  const servers = Object.entries(rawTools).map(([server, raw]): ServerTokenCost => {
    const exposed = listing.tools.filter((t) => t.server === server);
    return {
      server,
      tools: exposed.length,
      rawChars: JSON.stringify({ tools: raw }).length,
      rawTokens: raw.reduce((sum, tool) => sum + estimateTokens(JSON.stringify(tool)), 0),
      modelChars: exposed.reduce(
        (sum, t) =>
          sum +
          JSON.stringify({ name: t.name, description: t.description, input_schema: t.inputSchema })
            .length,
        0,
      ),
      hostTokens: listing.tokens.byServer[server] ?? 0,
    };
  });
  const sum = (key: 'tools' | 'rawChars' | 'rawTokens' | 'modelChars' | 'hostTokens'): number =>
    servers.reduce((total, s) => total + s[key], 0);
  return {
    servers,
    total: {
      tools: sum('tools'),
      rawChars: sum('rawChars'),
      rawTokens: sum('rawTokens'),
      modelChars: sum('modelChars'),
      hostTokens: sum('hostTokens'),
    },
    hostTotal: listing.tokens.total,
    hostWireChars,
  };
}
