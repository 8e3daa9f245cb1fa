import { MAX_CACHE_TTL_MS, type Client } from '@modelcontextprotocol/client';
import { keepListening } from './change-stream';
import { untrustedMessage } from './runtime-errors';
import type { ScheduleFn } from './schedule';
import { canonicalHash } from '../shared/canonical-json';
import {
  MAX_CURSOR_CHARS,
  MAX_LIST_PAGES,
  followCursor,
  MAX_TOOLS_PER_SERVER,
  ListToolsPageSchema,
  parseToolDefinition,
  type ToolDefinition,
} from '../shared/tool-definition';
import { messageOf } from '../../protocol/guards';

/** A tool the server listed that failed validation, and why (shown by `doctor`). */
export interface RejectedTool {
  readonly name: string;
  readonly problem: string;
}

/** One server's tool listing, as far as it got. */
export interface ToolListing {
  readonly tools: readonly ToolDefinition[];
  readonly rejected: readonly RejectedTool[];
  /**
   * The warning to log when a page request failed (the tools of the pages before it are kept), or
   * undefined when the listing completed.
   */
  readonly failure: string | undefined;
  /**
   * How long the listing stays fresh, from the first page's `ttlMs` (2026-07-28, SEP-2549),
   * capped at the SDK's 24 h; undefined when the server gave none (every 2025-era server) or 0.
   */
  readonly ttlMs: number | undefined;
}

/** A server's `ttlMs`, if it is a usable one. */
function freshFor(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined;
  return Math.min(value, MAX_CACHE_TTL_MS);
}

/**
 * Lists a connected server's tools: follows `nextCursor` for at most `MAX_LIST_PAGES` pages and
 * keeps at most `MAX_TOOLS_PER_SERVER` tools, each validated on its own (a malformed tool is
 * rejected, its siblings kept). A server without the `tools` capability is not asked. Never throws.
 */
export async function listServerTools(client: Client, timeoutMs: number): Promise<ToolListing> {
  if (!client.getServerCapabilities()?.tools) {
    return { tools: [], rejected: [], failure: undefined, ttlMs: undefined };
  }
  const tools: ToolDefinition[] = [];
  const rejected: RejectedTool[] = [];
  let cursor: string | undefined;
  let ttlMs: number | undefined;
  const seen = new Set<string>();
  try {
    for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
      const result = await client.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        ListToolsPageSchema,
        { timeout: timeoutMs },
      );
      if (page === 0) ttlMs = freshFor(result['ttlMs']);
      for (const entry of result.tools) {
        if (tools.length >= MAX_TOOLS_PER_SERVER) break;
        const parsed = parseToolDefinition(entry);
        if (parsed.ok) tools.push(parsed.tool);
        else rejected.push({ name: parsed.name, problem: parsed.problem });
      }
      cursor = result.nextCursor;
      if (tools.length >= MAX_TOOLS_PER_SERVER) break;
      const next = followCursor(cursor, seen);
      if (next === 'last') break;
      if (next === 'too-long') {
        return {
          tools,
          rejected,
          failure: `tools/list stopped after ${String(page + 1)} page(s): the server's next cursor is longer than ${String(MAX_CURSOR_CHARS)} characters`,
          ttlMs,
        };
      }
    }
  } catch (error) {
    const message = messageOf(error);
    return {
      tools,
      rejected,
      failure: `tools/list failed: ${untrustedMessage(message)}`,
      ttlMs: undefined,
    };
  }
  return { tools, rejected, failure: undefined, ttlMs };
}

/** One warning per rejected tool; the names and problems are the server's words. */
function rejectedToolWarnings(rejected: readonly RejectedTool[]): string[] {
  return rejected.map(
    (r) => `skipped tool '${untrustedMessage(r.name)}': ${untrustedMessage(r.problem)}`,
  );
}

/** What a `ServerToolList` is told and tells. */
export interface ServerToolListHooks<C> {
  /** How long each `tools/list` page may take. */
  readonly timeoutMs: number;
  /** Whether `connection` is still the runtime's current one. */
  readonly isCurrent: (connection: C) => boolean;
  /** A listing failed part-way, or skipped a tool (the text is already made safe). */
  readonly onWarning: (message: string) => void;
  /** A refresh (after `list_changed`, or a listing that expired and changed) ended. */
  readonly onRefreshed: () => void;
  /** Runs the re-listing when a listing's ttl runs out. */
  readonly schedule: ScheduleFn;
}

/**
 * The tools of a runtime's current connection. A listing whose connection is no longer current
 * when it ends is dropped, so a slow `tools/list` of a closed connection never overwrites the
 * tools of the one after it.
 *
 * A listing is re-fetched after `notifications/tools/list_changed` and, where the server said how
 * long it stays fresh (`ttlMs`, 2026-07-28), when that runs out, never before. A re-listing after
 * `list_changed` is always announced; one after the ttl only when the tools changed.
 */
export class ServerToolList<C extends { readonly client: Client }> {
  private listed: readonly ToolDefinition[] = [];
  private listedHash = '';
  private skipped: readonly RejectedTool[] = [];
  private readonly refresh: ListChangedRefresh<C>;
  /** Whether the running refresh has something to announce. */
  private changed = false;
  private cancelExpiry: (() => void) | undefined;

  constructor(private readonly hooks: ServerToolListHooks<C>) {
    this.refresh = new ListChangedRefresh({
      relist: async (connection) => {
        const before = this.listedHash;
        await this.list(connection);
        if (this.listedHash !== before) this.changed = true;
      },
      isCurrent: hooks.isCurrent,
      onSettled: () => {
        if (!this.changed) return;
        this.changed = false;
        hooks.onRefreshed();
      },
    });
  }

  /** Tools of the last successful listing (empty once cleared). */
  get tools(): readonly ToolDefinition[] {
    return this.listed;
  }

  /** Tools the last listing rejected, with the reason (kept after `clear()`, for `doctor`). */
  get rejected(): readonly RejectedTool[] {
    return this.skipped;
  }

  /**
   * The first listing of a new connection; on a 2026-07-28 one it also subscribes to
   * `list_changed` and keeps the stream open (change-stream.ts; in parallel: a server that never
   * acknowledges costs a warning, not a start).
   */
  async start(connection: C): Promise<void> {
    keepListening({
      client: connection.client,
      timeoutMs: this.hooks.timeoutMs,
      isCurrent: () => this.hooks.isCurrent(connection),
      schedule: this.hooks.schedule,
      onWarning: (warning) => {
        this.hooks.onWarning(untrustedMessage(warning));
      },
      // Whatever changed while the stream was closed was never announced.
      onReopened: () => {
        this.listChanged(connection);
      },
    });
    await this.list(connection);
  }

  /**
   * Lists `connection`'s tools afresh; the result is kept only if it is still current. Never
   * throws: the start and the refreshes after `list_changed` rely on it.
   */
  async list(connection: C): Promise<void> {
    const listing = await listServerTools(connection.client, this.hooks.timeoutMs);
    if (listing.failure !== undefined) this.hooks.onWarning(listing.failure);
    if (!this.hooks.isCurrent(connection)) return;
    for (const warning of rejectedToolWarnings(listing.rejected)) this.hooks.onWarning(warning);
    let hash: string;
    try {
      hash = canonicalHash(listing.tools);
    } catch (error) {
      // Every tool was validated (depth included), so this is a check missed: keep the server
      // up with no tools rather than fail the host.
      this.hooks.onWarning(
        `tools/list: cannot read the listing (${untrustedMessage(messageOf(error))})`,
      );
      this.listed = [];
      this.listedHash = '';
      this.skipped = listing.rejected;
      return;
    }
    this.listed = listing.tools;
    this.listedHash = hash;
    this.skipped = listing.rejected;
    this.expireAfter(connection, listing.ttlMs);
  }

  /** `notifications/tools/list_changed` arrived on `connection`. */
  listChanged(connection: C): void {
    this.changed = true;
    this.refresh.request(connection);
  }

  /** Forgets the tools: the connection is gone. */
  clear(): void {
    this.listed = [];
    this.listedHash = '';
    this.changed = false;
    this.cancelExpiry?.();
    this.cancelExpiry = undefined;
  }

  private expireAfter(connection: C, ttlMs: number | undefined): void {
    this.cancelExpiry?.();
    this.cancelExpiry = undefined;
    if (ttlMs === undefined) return;
    this.cancelExpiry = this.hooks.schedule(() => {
      this.cancelExpiry = undefined;
      if (this.hooks.isCurrent(connection)) this.refresh.request(connection);
    }, ttlMs);
  }
}

/** What a `ListChangedRefresh` does, for whichever connection the notification came on. */
export interface ListChangedHooks<C> {
  /** Lists the tools of `connection` afresh (never throws). */
  readonly relist: (connection: C) => Promise<void>;
  /** Whether `connection` is still the runtime's current one. */
  readonly isCurrent: (connection: C) => boolean;
  /** A refresh ended while `connection` is still current: announce the new listing. */
  readonly onSettled: (connection: C) => void;
}

/**
 * Re-lists after `notifications/tools/list_changed`: a notification during a refresh does not
 * start another one, it makes the running one list once more at its end, so a burst costs one
 * trailing listing. The loop ends when its connection is no longer current.
 */
export class ListChangedRefresh<C> {
  private running: Promise<void> | undefined;
  private again = false;

  constructor(private readonly hooks: ListChangedHooks<C>) {}

  request(connection: C): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.hooks.relist(connection);
      } while (this.requestedAgain() && this.hooks.isCurrent(connection));
    })().finally(() => {
      this.running = undefined;
      if (this.hooks.isCurrent(connection)) this.hooks.onSettled(connection);
    });
  }

  /** Whether a notification arrived during the last listing (read through a call so the
   * compiler does not narrow the field across the await above). */
  private requestedAgain(): boolean {
    return this.again;
  }
}
