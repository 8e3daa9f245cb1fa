import type { ContextMeter } from '../../messaging/ui-protocol';
import { exactCount } from '../common/format';

/**
 * The context meter's numbers (design D11): what one model turn costs, by part, with the MCP
 * tools carved out of the tools total, the biggest servers named, and the profile's budget.
 */

export type MeterSegmentKey = 'system' | 'conversation' | 'images' | 'builtin' | 'mcp';

export interface MeterSegment {
  readonly key: MeterSegmentKey;
  readonly label: string;
  readonly tokens: number;
  /** Share of the bar, 0..1. */
  readonly fraction: number;
}

/** 950, 1.2k, 12.3k, 123k, 1.2M: short enough for a 360px panel. */
export function formatTokens(tokens: number): string {
  const n = Math.max(0, Math.round(tokens));
  if (n < 1000) return String(n);
  const trim = (value: string): string => value.replace(/\.0$/, '');
  if (n < 100_000) return `${trim((n / 1000).toFixed(1))}k`;
  const thousands = Math.round(n / 1000);
  if (thousands < 1000) return `${thousands}k`;
  return `${trim((n / 1_000_000).toFixed(1))}M`;
}

/** The exact number with thousands separators, for tooltips: 12,345. */
export const exactTokens = exactCount;

/**
 * The bar's parts, in order. Images are a part of their own, carved out of the conversation, once
 * there are any: a screenshot can cost more than the text around it.
 */
export function meterSegments(meter: ContextMeter): MeterSegment[] {
  const images = Math.min(Math.max(0, meter.images), Math.max(0, meter.conversation));
  type Part = readonly [key: MeterSegmentKey, label: string, tokens: number];
  const parts: Part[] = [
    ['system', 'System prompt', meter.system],
    ['conversation', 'Conversation', meter.conversation - images],
  ];
  if (images > 0) parts.push(['images', 'Images', images]);
  parts.push(
    ['builtin', 'Built-in tools', Math.max(0, meter.tools - meter.mcpTools)],
    ['mcp', 'MCP tools', meter.mcpTools],
  );
  const sum = parts.reduce((total, [, , tokens]) => total + Math.max(0, tokens), 0);
  // Against the model's window when it is known, so an empty chat does not look full.
  const scale = Math.max(sum, meter.total, meter.window?.tokens ?? 0);
  return parts.map(([key, label, tokens]) => ({
    key,
    label,
    tokens: Math.max(0, tokens),
    fraction: scale === 0 ? 0 : Math.max(0, tokens) / scale,
  }));
}

export interface ServerShare {
  readonly server: string;
  readonly tokens: number;
}

/** The `limit` largest MCP servers, and what the rest add up to. */
export function largestServers(
  meter: ContextMeter,
  limit = 3,
): {
  readonly named: readonly ServerShare[];
  readonly others: { readonly count: number; readonly tokens: number };
} {
  const sorted = [...meter.mcpByServer].sort((a, b) => b.tokens - a.tokens);
  const named = sorted.slice(0, limit);
  const namedTokens = named.reduce((sum, s) => sum + s.tokens, 0);
  const listedRest = sorted.slice(limit);
  return {
    named,
    others: {
      count: listedRest.length,
      // The worker may list only the top servers: the rest of mcpTools is "others" too.
      tokens: Math.max(0, meter.mcpTools - namedTokens),
    },
  };
}

export interface BudgetView {
  readonly used: number;
  readonly limit: number;
  readonly over: boolean;
  /** used / limit, capped at 1 for drawing. */
  readonly fraction: number;
  readonly text: string;
  /** What to do when over budget; null otherwise. */
  readonly hint: string | null;
}

/**
 * Tool search mode, when on (docs/decisions/0027): "Tool search is on (over budget): the model is
 * offered 2 pinned tools and finds the other 98 by search." Null when off.
 */
export function toolSearchText(meter: ContextMeter): string | null {
  const search = meter.toolSearch;
  if (search === null) return null;
  const why =
    search.reason === 'over-budget' ? "over this profile's budget" : "the profile's setting";
  const rest = Math.max(0, search.searchable - search.pinned);
  const pinned = search.pinned === 1 ? '1 pinned tool' : `${search.pinned} pinned tools`;
  return `Tool search is on (${why}): the model is offered ${pinned} and finds the other ${rest} by search.`;
}

export function budgetView(meter: ContextMeter): BudgetView | null {
  if (meter.budget === null) return null;
  const { used, limit } = meter.budget;
  const over = used > limit;
  const fraction = limit <= 0 ? 1 : Math.min(1, used / limit);
  const text = over
    ? `Tool budget: ${formatTokens(used)} of ${formatTokens(limit)} tokens, ${formatTokens(used - limit)} over`
    : `Tool budget: ${formatTokens(used)} of ${formatTokens(limit)} tokens`;
  return {
    used,
    limit,
    over,
    fraction,
    text,
    hint: over
      ? (toolSearchText(meter) ??
        "Over this profile's budget: disable servers or tools you do not need in the Switchyard popup.")
      : null,
  };
}

function perTurn(meter: ContextMeter): number {
  return Math.max(meter.total, meter.system + meter.conversation + meter.tools);
}

/**
 * The meter's one-line summary: "14.2k of 128k tokens · MCP tools 9.1k" against the model's
 * window, "14.2k tokens per turn · MCP tools 9.1k" without one.
 */
export function meterSummary(meter: ContextMeter): string {
  const total = formatTokens(perTurn(meter));
  const used =
    meter.window === null
      ? `${total} tokens per turn`
      : `${total} of ${formatTokens(meter.window.tokens)} tokens`;
  const search = meter.toolSearch === null ? '' : ' · tool search on';
  return `${used} · MCP tools ${formatTokens(meter.mcpTools)}${search}`;
}

/** The window line under the legend: where its figure comes from, and whether a turn is over it. */
export function windowView(meter: ContextMeter): {
  readonly text: string;
  readonly over: boolean;
} | null {
  const { window } = meter;
  if (window === null) return null;
  const tokens = `${exactTokens(window.tokens)} tokens`;
  const source =
    window.source === 'known'
      ? 'its published figure'
      : window.source === 'setting'
        ? 'your setting in options'
        : 'assumed: Switchyard does not know this model; set its window in options';
  return {
    text: `Context window of ${window.model}: ${tokens} (${source}).`,
    over: perTurn(meter) > window.tokens,
  };
}
