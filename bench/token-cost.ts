import type { Tool } from '@modelcontextprotocol/client';
import { estimateTokens } from '../protocol/token-estimate';
import type { ToolListingView } from './host-views';
import {
  PROVIDER_FORMATS,
  wireTokens,
  wireTools,
  withFields,
  type ProviderFormat,
} from './provider-formats';

/**
 * What the tool listings cost a model on every turn: each server's raw `tools/list` (what a naive
 * relay would forward) against the model-facing listing the host builds from it (namespaced name,
 * sanitized and capped description, minified input schema; no outputSchema, annotations or _meta).
 * Both sides are estimated with the host's own estimator, so the difference is the listing, not
 * the tokenizer. Per provider format, the listing is also put through the extension's real
 * provider adapters (bench/provider-formats.ts) twice: as the host lists it, and with each tool's
 * schema as the server wrote it, so the table shows what minifying saves in each wire format.
 */

/** Model-facing listing / raw `tools/list`, in every format (issue 15). */
export const LISTING_RATIO_TARGET = 0.5;

/**
 * One provider's wire format of the listing. Each side is the tools as that provider's adapter
 * sends them (request flags such as Anthropic's `eager_input_streaming` not counted): `raw` with
 * every field of the server's definition forwarded (a naive relay), `unminified` as the host
 * lists them but with each schema as the server wrote it, `model` as the host lists them.
 */
export interface FormatCost {
  readonly format: ProviderFormat;
  readonly rawTokens: number;
  readonly unminifiedTokens: number;
  readonly modelTokens: number;
  /** `modelTokens` / `rawTokens`. */
  readonly ratio: number;
}

export interface ServerTokenCost {
  readonly server: string;
  readonly tools: number;
  /** Characters of the server's `tools/list` result JSON, as the direct SDK client received it. */
  readonly rawChars: number;
  /** Estimated tokens of the raw tool definitions, one JSON object per tool. */
  readonly rawTokens: number;
  /** Characters of `{name, description, input_schema}` per tool, as the host lists them. */
  readonly modelChars: number;
  /** The host's own figure (each listed tool's `tokens`), for the same tools. */
  readonly hostTokens: number;
}

export interface TokenCostResult {
  readonly servers: readonly ServerTokenCost[];
  readonly total: Omit<ServerTokenCost, 'server'>;
  /** The host's `tokens.total`. */
  readonly hostTotal: number;
  /** Tools the host lists that the direct client was not offered, left out of both sides. */
  readonly hostOnlyTools: readonly string[];
  /** Characters of the host's whole `tools/list` reply to the extension (not model-facing). */
  readonly hostWireChars: number;
  /** The host's estimate / the raw `tools/list` tokens. */
  readonly hostRatio: number;
  readonly formats: readonly FormatCost[];
}

export async function tokenCost(
  rawTools: Readonly<Record<string, readonly Tool[]>>,
  listing: ToolListingView,
  /** Characters of the host's `tools/list` reply as sent, all fields included. */
  hostWireChars: number,
): Promise<TokenCostResult> {
  const rawOf = (server: string, tool: string): Tool | undefined =>
    rawTools[server]?.find((t) => t.name === tool);
  // The same tools on both sides: the host declares client capabilities (elicitation, sampling,
  // roots) the bench's direct client does not, and server-everything lists more tools for them.
  const exposed = listing.tools.filter((t) => rawOf(t.server, t.tool) !== undefined);
  const servers = Object.entries(rawTools).map(([server, raw]): ServerTokenCost => {
    const shown = exposed.filter((t) => t.server === server);
    const compared = raw.filter((r) => shown.some((t) => t.tool === r.name));
    return {
      server,
      tools: shown.length,
      rawChars: JSON.stringify({ tools: compared }).length,
      rawTokens: compared.reduce((sum, tool) => sum + estimateTokens(JSON.stringify(tool)), 0),
      modelChars: shown.reduce(
        (sum, t) =>
          sum +
          JSON.stringify({ name: t.name, description: t.description, input_schema: t.inputSchema })
            .length,
        0,
      ),
      hostTokens: shown.reduce((sum, t) => sum + t.tokens, 0),
    };
  });
  const sum = (key: 'tools' | 'rawChars' | 'rawTokens' | 'modelChars' | 'hostTokens'): number =>
    servers.reduce((total, s) => total + s[key], 0);
  const rawTokens = sum('rawTokens');
  const formats: FormatCost[] = [];
  for (const [format, settings] of Object.entries(PROVIDER_FORMATS) as Array<
    [ProviderFormat, (typeof PROVIDER_FORMATS)[ProviderFormat]]
  >) {
    const shown = exposed.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
    }));
    const unminified = exposed.map((t, i) => ({
      ...shown[i]!,
      inputSchema: rawOf(t.server, t.tool)?.inputSchema ?? t.inputSchema,
    }));
    const unminifiedWire = await wireTools(settings, unminified);
    const rawWire = unminifiedWire.map((wireTool, i) => {
      const t = exposed[i]!;
      // Everything but the three members the adapter already placed.
      const extra = Object.fromEntries(
        Object.entries(rawOf(t.server, t.tool) ?? {}).filter(
          ([key]) => key !== 'name' && key !== 'description' && key !== 'inputSchema',
        ),
      );
      return withFields(format, wireTool, extra);
    });
    const rawTokens = wireTokens(format, rawWire);
    const modelTokens = wireTokens(format, await wireTools(settings, shown));
    formats.push({
      format,
      rawTokens,
      unminifiedTokens: wireTokens(format, unminifiedWire),
      modelTokens,
      ratio: modelTokens / rawTokens,
    });
  }
  return {
    servers,
    total: {
      tools: sum('tools'),
      rawChars: sum('rawChars'),
      rawTokens,
      modelChars: sum('modelChars'),
      hostTokens: sum('hostTokens'),
    },
    hostTotal: listing.tokens.total,
    hostOnlyTools: listing.tools.filter((t) => !exposed.includes(t)).map((t) => t.name),
    hostWireChars,
    hostRatio: sum('hostTokens') / rawTokens,
    formats,
  };
}
