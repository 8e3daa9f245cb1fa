import type { Client } from '@modelcontextprotocol/client';
import { untrustedMessage } from './runtime-errors';
import {
  MAX_LIST_PAGES,
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
}

/**
 * Lists a connected server's tools: follows `nextCursor` for at most `MAX_LIST_PAGES` pages and
 * keeps at most `MAX_TOOLS_PER_SERVER` tools, each validated on its own (a malformed tool is
 * rejected, its siblings kept). A server without the `tools` capability is not asked. Never throws.
 */
export async function listServerTools(client: Client, timeoutMs: number): Promise<ToolListing> {
  if (!client.getServerCapabilities()?.tools) {
    return { tools: [], rejected: [], failure: undefined };
  }
  const tools: ToolDefinition[] = [];
  const rejected: RejectedTool[] = [];
  let cursor: string | undefined;
  try {
    for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
      const result = await client.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        ListToolsPageSchema,
        { timeout: timeoutMs },
      );
      for (const entry of result.tools) {
        if (tools.length >= MAX_TOOLS_PER_SERVER) break;
        const parsed = parseToolDefinition(entry);
        if (parsed.ok) tools.push(parsed.tool);
        else rejected.push({ name: parsed.name, problem: parsed.problem });
      }
      cursor = result.nextCursor;
      if (cursor === undefined || tools.length >= MAX_TOOLS_PER_SERVER) break;
    }
  } catch (error) {
    const message = messageOf(error);
    return { tools, rejected, failure: `tools/list failed: ${untrustedMessage(message)}` };
  }
  return { tools, rejected, failure: undefined };
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
  /** A refresh after `list_changed` ended while its connection is current. */
  readonly onRefreshed: () => void;
}

/**
 * The tools of a runtime's current connection. A listing whose connection is no longer current
 * when it ends is dropped, so a slow `tools/list` of a closed connection never overwrites the
 * tools of the one after it.
 */
export class ServerToolList<C extends { readonly client: Client }> {
  private listed: readonly ToolDefinition[] = [];
  private skipped: readonly RejectedTool[] = [];
  private readonly refresh: ListChangedRefresh<C>;

  constructor(private readonly hooks: ServerToolListHooks<C>) {
    this.refresh = new ListChangedRefresh({
      relist: (connection) => this.list(connection),
      isCurrent: hooks.isCurrent,
      onSettled: () => {
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

  /** Lists `connection`'s tools afresh; the result is kept only if it is still current. */
  async list(connection: C): Promise<void> {
    const listing = await listServerTools(connection.client, this.hooks.timeoutMs);
    if (listing.failure !== undefined) this.hooks.onWarning(listing.failure);
    if (!this.hooks.isCurrent(connection)) return;
    for (const warning of rejectedToolWarnings(listing.rejected)) this.hooks.onWarning(warning);
    this.listed = listing.tools;
    this.skipped = listing.rejected;
  }

  /** `notifications/tools/list_changed` arrived on `connection`. */
  listChanged(connection: C): void {
    this.refresh.request(connection);
  }

  /** Forgets the tools: the connection is gone. */
  clear(): void {
    this.listed = [];
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
