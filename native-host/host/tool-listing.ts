import type { ToolUi, ToolVisibility } from '../../protocol/apps';
import type { ExposedTool, ToolAnnotations, ToolPolicyState } from '../../protocol/tools';
import type { ToolDefinition, ToolHints } from '../shared/tool-definition';
import { buildNameTable } from '../names/namespace';
import { minifySchema } from '../../protocol/schema-minify';
import { estimateToolTokens } from '../../protocol/token-estimate';
import { safeDeep, safeText } from '../../protocol/untrusted/gate';

/**
 * The model-facing listing of every running server's tools: exposed names from the name table
 * (design D4), descriptions and schemas through the untrusted-text gate (D9), descriptions capped
 * and `outputSchema` left out (D11), schemas minified (decision 0021: nothing a model or provider
 * reads is lost), and the token cost of each tool. Pure: built from the servers'
 * current tool definitions, so the popup, the CLI and the agent all see one listing.
 */

/** Longest description a model is sent, in characters (longer ones are capped with a marker). */
export const MAX_DESCRIPTION_CHARS = 2_000;

export interface ServerTools {
  readonly server: string;
  readonly prefix: string | undefined;
  readonly tools: readonly ToolDefinition[];
  /** Whether the server's apps are shown (`"apps": false` in its entry turns them off; absent:
   * on). */
  readonly apps?: boolean;
}

export interface ListedTool {
  readonly exposed: ExposedTool;
  readonly server: string;
  /** The raw definition, for routing by raw name and for policy (hints). */
  readonly definition: ToolDefinition;
}

export interface ToolListing {
  readonly tools: readonly ListedTool[];
  readonly byName: ReadonlyMap<string, ListedTool>;
  /** What the model is sent, in total and per server: denied tools are never sent, so cost 0. */
  readonly tokens: { readonly total: number; readonly byServer: Readonly<Record<string, number>> };
  /** Tools the name table refused (e.g. a server listed the same name twice). */
  readonly rejected: ReadonlyArray<{
    readonly server: string;
    readonly tool: string;
    readonly reason: string;
  }>;
}

function annotationsOf(hints: ToolHints): ToolAnnotations | undefined {
  const annotations: ToolAnnotations = {};
  if (hints.title !== undefined) annotations.title = safeText(hints.title);
  // A malformed hint is shown as the tighter value: annotations may only tighten (design D8).
  if (hints.readOnlyHint !== undefined) annotations.readOnlyHint = hints.readOnlyHint === true;
  if (hints.destructiveHint !== undefined)
    annotations.destructiveHint = hints.destructiveHint !== false;
  if (hints.idempotentHint !== undefined)
    annotations.idempotentHint = hints.idempotentHint === true;
  if (hints.openWorldHint !== undefined) annotations.openWorldHint = hints.openWorldHint !== false;
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}

/**
 * The schema the model is sent: through the untrusted-text gate, then minified (decision 0021),
 * with the gated tool name so a root title that only repeats it goes too.
 */
function shownSchema(schema: Record<string, unknown>, toolName: string): Record<string, unknown> {
  const clean = safeDeep(schema);
  if (typeof clean === 'object' && clean !== null && !Array.isArray(clean)) {
    return minifySchema(Object.fromEntries(Object.entries(clean)), { toolName });
  }
  return { type: 'object' };
}

/** The policy state of one tool, decided by the caller (policy rules, hints, pins). */
export type PolicyOf = (
  server: string,
  definition: ToolDefinition,
  exposedName: string,
) => ToolPolicyState;

/** What a definition shows the model, apart from its exposed name and its policy. */
interface ShownParts {
  readonly tool: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly title: string | undefined;
  readonly annotations: ToolAnnotations | undefined;
  /** Token estimate for the exposed name it was last listed under. */
  tokens?: { readonly name: string; readonly value: number };
}

/**
 * The sanitized parts of each definition, computed once: the listing is rebuilt on every state
 * change (each server that comes up during a cold start, each policy change) and sanitizing every
 * schema again each time was most of the rebuild. Keyed by the definition object, which is never
 * modified (a new `tools/list` makes new objects).
 */
const shownParts = new WeakMap<ToolDefinition, ShownParts>();

function partsOf(definition: ToolDefinition): ShownParts {
  let parts = shownParts.get(definition);
  if (parts === undefined) {
    const tool = safeText(definition.name);
    parts = {
      tool,
      description: safeText(definition.description, { maxChars: MAX_DESCRIPTION_CHARS }),
      inputSchema: shownSchema(definition.inputSchema, tool),
      title: definition.title === undefined ? undefined : safeText(definition.title),
      annotations: annotationsOf(definition.hints),
    };
    shownParts.set(definition, parts);
  }
  return parts;
}

function tokensOf(parts: ShownParts, name: string): number {
  if (parts.tokens?.name !== name) {
    const { description, inputSchema } = parts;
    parts.tokens = { name, value: estimateToolTokens({ name, description, inputSchema }) };
  }
  return parts.tokens.value;
}

/** What the listing says of a tool's app: its page only while the server's apps are on. */
function exposedUi(definition: ToolDefinition, apps: boolean): ToolUi | undefined {
  const ui = definition.ui;
  if (ui === undefined) return undefined;
  const visibility: ToolVisibility[] = [];
  if (ui.model) visibility.push('model');
  if (ui.app) visibility.push('app');
  return {
    visibility,
    ...(apps && ui.resourceUri !== undefined ? { resourceUri: ui.resourceUri } : {}),
  };
}

/** Whether the model may see and call a tool with this `ui` (no `ui`: an ordinary tool). */
export function modelMayCall(ui: ToolUi | undefined): boolean {
  return ui === undefined || ui.visibility.includes('model');
}

export function buildToolListing(
  servers: readonly ServerTools[],
  reserved: ReadonlySet<string>,
  policyOf: PolicyOf,
): ToolListing {
  const table = buildNameTable({
    servers: servers.map((s) => ({
      server: s.server,
      ...(s.prefix === undefined ? {} : { prefix: s.prefix }),
      tools: s.tools.map((t) => t.name),
    })),
    reserved,
  });
  const tools: ListedTool[] = [];
  const byServer: Record<string, number> = {};
  let total = 0;
  for (const server of servers) {
    byServer[server.server] = 0;
    for (const definition of server.tools) {
      const name = table.exposedOf(server.server, definition.name);
      if (name === undefined) continue;
      const parts = partsOf(definition);
      const ui = exposedUi(definition, server.apps !== false);
      // A tool only its app may call is never sent to the model, so it costs the model nothing.
      const tokens = modelMayCall(ui) ? tokensOf(parts, name) : 0;
      const exposed: ExposedTool = {
        name,
        server: server.server,
        tool: parts.tool,
        description: parts.description,
        inputSchema: parts.inputSchema,
        tokens,
        policy: policyOf(server.server, definition, name),
        ...(parts.title === undefined ? {} : { title: parts.title }),
        ...(parts.annotations === undefined ? {} : { annotations: parts.annotations }),
        ...(ui === undefined ? {} : { ui }),
      };
      tools.push({ exposed, server: server.server, definition });
      if (exposed.policy === 'deny' || !modelMayCall(ui)) continue;
      byServer[server.server] = (byServer[server.server] ?? 0) + tokens;
      total += tokens;
    }
  }
  tools.sort((a, b) =>
    a.exposed.name < b.exposed.name ? -1 : a.exposed.name > b.exposed.name ? 1 : 0,
  );
  return {
    tools,
    byName: new Map(tools.map((t) => [t.exposed.name, t])),
    tokens: { total, byServer },
    rejected: table.rejected.map((r) => ({ server: r.server, tool: r.tool, reason: r.reason })),
  };
}
