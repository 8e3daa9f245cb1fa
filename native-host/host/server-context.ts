import type {
  CompletionRef,
  ListingProblem,
  Prompt,
  PromptMessage,
  Resource,
  ResourceContents,
  ResourceTemplate,
} from '../../protocol/resources';
import type { ContentBlock } from '../../protocol/tools';
import type { ServerRuntime } from '../mcp/server-runtime';
import {
  EmptyResultSchema,
  RawCompleteResultSchema,
  RawPromptResultSchema,
  RawPromptsPageSchema,
  RawReadResultSchema,
  RawResourcesPageSchema,
  RawTemplatesPageSchema,
  collectPages,
  completionValues,
  parsePrompt,
  parseResource,
  parseTemplate,
  promptMessages,
  readContents,
  type Paged,
} from '../mcp/server-features';
import type { CallOptions } from '../mcp/runtime-types';
import type { ProfileStore } from '../profiles/store';
import { HostError } from '../shared/host-error';
import { isLoopbackHost } from '../../protocol/remote-url';
import { safeText } from '../../protocol/untrusted/gate';
import { messageOf } from '../../protocol/guards';
import { gateCallResult } from './result-gate';
import type { AppReadResult } from '../../protocol/apps';
import { appsTurnedOff, readAppPage, splitIntoParts, type AppPage } from '../mcp/app-page';
import type { ServerFleet } from './server-fleet';
import { METHOD_NOT_FOUND } from '@modelcontextprotocol/client';

/**
 * A server's context for the user (issue 12): its resources, resource templates and prompts, and
 * completions for their arguments, under the active profile (design D10: a server the profile
 * hides has none of these on that site). Listings are asked for when the user browses, never
 * cached: a picker is opened far less often than a model turn, and a cache would need the same
 * invalidation as `list_changed` gives for nothing.
 *
 * What a read or a prompt returns goes through the result gate like a tool result (sanitized,
 * redacted, fitted into one frame; design D9). It is not wrapped here: the extension wraps what
 * it attaches to a message, at the point it becomes model input.
 */

export interface ServerContextOptions {
  readonly fleet: ServerFleet;
  readonly profiles: ProfileStore;
}

type Scope = { server?: string; profile?: string };

function unsupported(server: string, what: string): HostError {
  return new HostError('not-supported', `Server '${server}' does not offer ${what}.`, { server });
}

/** App pages kept for their later parts: a few, briefly (a page is read part by part at once). */
const MAX_CACHED_PAGES = 3;
const PAGE_TTL_MS = 120_000;

interface CachedPage {
  readonly page: Omit<AppPage, 'html'>;
  readonly parts: readonly string[];
  readonly at: number;
}

export class ServerContext {
  private readonly pages = new Map<string, CachedPage>();

  constructor(private readonly options: ServerContextOptions) {}

  /**
   * One part of an MCP App's page (`apps/read`): part 0 reads the page afresh from the server,
   * later parts come from that read (kept for two minutes). Every part carries the page's hash,
   * so a reader that gets parts of two different reads can tell.
   */
  async readApp(
    server: string,
    uri: string,
    part: number,
    profile?: string,
    options: CallOptions = {},
  ): Promise<AppReadResult> {
    const runtime = this.visible(server, profile);
    if (this.options.fleet.findSpec(server)?.apps === false) throw appsTurnedOff(server);
    this.require(runtime, 'resources', 'resources');
    const key = `${server}\u0000${uri}`;
    let cached = this.pages.get(key);
    if (part === 0 || cached === undefined || Date.now() - cached.at > PAGE_TTL_MS) {
      const raw = await runtime.requests.request(
        'resources/read',
        { uri },
        RawReadResultSchema,
        options,
      );
      const remote = this.options.fleet.findSpec(server)?.remote ?? null;
      const { html, ...page } = readAppPage(
        raw,
        server,
        uri,
        remote === null || onLoopback(remote.url),
      );
      cached = { page, parts: splitIntoParts(html), at: Date.now() };
      this.pages.delete(key);
      this.pages.set(key, cached);
      for (const old of this.pages.keys()) {
        if (this.pages.size <= MAX_CACHED_PAGES) break;
        this.pages.delete(old);
      }
    }
    const text = cached.parts[part];
    if (text === undefined) {
      throw new HostError(
        'invalid-params',
        `The app page has ${cached.parts.length} parts; there is no part ${part}.`,
        {},
      );
    }
    const { hash, bytes, csp, ignored, permissions, prefersBorder } = cached.page;
    return {
      server,
      uri,
      hash,
      bytes,
      part,
      parts: cached.parts.length,
      text,
      csp,
      ignored,
      permissions,
      ...(prefersBorder === undefined ? {} : { prefersBorder }),
    };
  }

  async listResources(
    scope: Scope,
  ): Promise<{ resources: Resource[]; problems: ListingProblem[] }> {
    const { items, problems } = await this.everyServer(scope, 'resources', (runtime) =>
      collectPages(async (cursor) => {
        const page = await runtime.requests.request(
          'resources/list',
          cursor === undefined ? {} : { cursor },
          RawResourcesPageSchema,
        );
        return { items: page.resources ?? [], ...cursorOf(page.nextCursor) };
      }, parseResource),
    );
    return { resources: items, problems };
  }

  async listTemplates(
    scope: Scope,
  ): Promise<{ resourceTemplates: ResourceTemplate[]; problems: ListingProblem[] }> {
    const { items, problems } = await this.everyServer(scope, 'resources', (runtime) =>
      collectPages(async (cursor) => {
        try {
          const page = await runtime.requests.request(
            'resources/templates/list',
            cursor === undefined ? {} : { cursor },
            RawTemplatesPageSchema,
          );
          return { items: page.resourceTemplates ?? [], ...cursorOf(page.nextCursor) };
        } catch (error) {
          // Templates are optional within `resources`: a server without the method has none.
          if (cursor === undefined && isMethodNotFound(error)) return { items: [] };
          throw error;
        }
      }, parseTemplate),
    );
    return { resourceTemplates: items, problems };
  }

  async listPrompts(scope: Scope): Promise<{ prompts: Prompt[]; problems: ListingProblem[] }> {
    const { items, problems } = await this.everyServer(scope, 'prompts', (runtime) =>
      collectPages(async (cursor) => {
        const page = await runtime.requests.request(
          'prompts/list',
          cursor === undefined ? {} : { cursor },
          RawPromptsPageSchema,
        );
        return { items: page.prompts ?? [], ...cursorOf(page.nextCursor) };
      }, parsePrompt),
    );
    return { prompts: items, problems };
  }

  async read(
    server: string,
    uri: string,
    profile?: string,
    options: CallOptions = {},
  ): Promise<{ server: string; contents: ResourceContents[] }> {
    const runtime = this.visible(server, profile);
    this.require(runtime, 'resources', 'resources');
    const raw = await runtime.requests.request(
      'resources/read',
      { uri },
      RawReadResultSchema,
      options,
    );
    const gated = gateCallResult({ content: readContents(raw, uri) });
    return { server, contents: gated.content.map((block) => contentsOf(block, uri)) };
  }

  async subscribe(server: string, uri: string, profile?: string): Promise<boolean> {
    const runtime = this.visible(server, profile);
    if (runtime.requests.capabilities?.resources?.subscribe !== true) return false;
    // On 2026-07-28 a subscription is a `subscriptions/listen` stream of its own.
    if (runtime.requests.era === 'modern') {
      await runtime.requests.listenToResource(uri);
      return true;
    }
    await runtime.requests.request('resources/subscribe', { uri }, EmptyResultSchema);
    return true;
  }

  async unsubscribe(server: string, uri: string): Promise<boolean> {
    const runtime = this.options.fleet.runtime(server);
    if (runtime.requests.capabilities?.resources?.subscribe !== true) return false;
    if (runtime.requests.era === 'modern') return runtime.requests.stopListening(uri);
    await runtime.requests.request('resources/unsubscribe', { uri }, EmptyResultSchema);
    return true;
  }

  async getPrompt(
    server: string,
    name: string,
    args: Record<string, string> | undefined,
    profile?: string,
    options: CallOptions = {},
  ): Promise<{ server: string; description?: string; messages: PromptMessage[] }> {
    const runtime = this.visible(server, profile);
    this.require(runtime, 'prompts', 'prompts');
    const raw = await runtime.requests.request(
      'prompts/get',
      { name, ...(args === undefined ? {} : { arguments: args }) },
      RawPromptResultSchema,
      options,
    );
    const messages = promptMessages(raw);
    // One gate pass over every message's content, so the whole prompt fits one frame.
    const gated = gateCallResult({ content: messages.map((m) => m.content) }).content;
    const description =
      typeof raw.description === 'string'
        ? safeText(raw.description, { maxChars: 2_000 })
        : undefined;
    return {
      server,
      ...(description === undefined ? {} : { description }),
      messages: messages.map((message, index) => ({
        role: message.role,
        content: gated[index] ?? message.content,
      })),
    };
  }

  async complete(
    server: string,
    ref: CompletionRef,
    argument: { name: string; value: string },
    context: { arguments: Record<string, string> } | undefined,
    profile?: string,
  ): Promise<{ values: string[]; total?: number; hasMore?: boolean }> {
    const runtime = this.visible(server, profile);
    // A server with no `completions` capability simply has none to offer: not an error.
    if (runtime.requests.capabilities?.completions === undefined) return { values: [] };
    const raw = await runtime.requests.request(
      'completion/complete',
      { ref, argument, ...(context === undefined ? {} : { context }) },
      RawCompleteResultSchema,
    );
    return completionValues(raw);
  }

  /** The runtime of a server the profile shows; a hidden one does not exist on this site. */
  private visible(server: string, profileId: string | undefined): ServerRuntime {
    const { fleet, profiles } = this.options;
    const profile = profiles.get(profileId);
    const spec = fleet.findSpec(server);
    if (spec === undefined || !profiles.enables(profile, spec)) {
      throw new HostError('unknown-server', `No server named '${server}' is available here.`, {
        server,
      });
    }
    return fleet.runtime(server);
  }

  private require(runtime: ServerRuntime, capability: 'resources' | 'prompts', what: string): void {
    if (runtime.state.state !== 'running') return; // request() says why it cannot be reached
    if (runtime.requests.capabilities?.[capability] === undefined)
      throw unsupported(runtime.name, what);
  }

  /**
   * One listing over the servers in scope: the named one (its failure is the request's), or every
   * running server the profile shows that offers the capability, in parallel, a failing one
   * reported in `problems` while the others are listed.
   */
  private async everyServer<T>(
    scope: Scope,
    capability: 'resources' | 'prompts',
    list: (runtime: ServerRuntime) => Promise<Paged<T>>,
  ): Promise<{ items: (T & { server: string })[]; problems: ListingProblem[] }> {
    const { fleet, profiles } = this.options;
    const profile = profiles.get(scope.profile);
    let runtimes: ServerRuntime[];
    if (scope.server !== undefined) {
      const runtime = this.visible(scope.server, scope.profile);
      this.require(runtime, capability, capability);
      runtimes = [runtime];
    } else {
      runtimes = fleet
        .allRuntimes()
        .filter((r) => profiles.enables(profile, fleet.spec(r.name)))
        .filter((r) => r.requests.capabilities?.[capability] !== undefined);
    }
    const problems: ListingProblem[] = [];
    // One reply carries every server's entries and must fit one frame: each server gets an equal
    // share of the room, so one with thousands of long URIs cannot make the listing fail for all.
    const share = Math.floor(MAX_LISTING_BYTES / Math.max(1, runtimes.length));
    const listed = await Promise.all(
      runtimes.map(async (runtime) => {
        try {
          const paged = await list(runtime);
          const items = paged.items.map((item) => ({ ...item, server: runtime.name }));
          const fitting = withinBytes(items, share);
          const notes: string[] = [];
          if (paged.truncated) notes.push('the listing was cut short (too many entries)');
          if (fitting.length < items.length) {
            notes.push(
              `${String(items.length - fitting.length)} entries were left out to fit one message`,
            );
          }
          if (paged.skipped > 0) notes.push(`${paged.skipped} malformed entries were skipped`);
          if (notes.length > 0) problems.push({ server: runtime.name, message: notes.join('; ') });
          return fitting;
        } catch (error) {
          if (scope.server !== undefined) throw error;
          problems.push({ server: runtime.name, message: messageOf(error) });
          return [];
        }
      }),
    );
    return { items: listed.flat(), problems };
  }
}

/** Room for all servers' entries in one `resources/list` (or templates, prompts) reply. */
const MAX_LISTING_BYTES = 768 * 1024;

/** The first of `items` whose JSON, together, fits in `bytes`. */
function withinBytes<T>(items: readonly T[], bytes: number): T[] {
  let used = 0;
  const kept: T[] = [];
  for (const item of items) {
    used += Buffer.byteLength(JSON.stringify(item), 'utf8') + 1;
    if (used > bytes) break;
    kept.push(item);
  }
  return kept;
}

function isMethodNotFound(error: unknown): boolean {
  return error instanceof HostError && error.details['code'] === METHOD_NOT_FOUND;
}

function cursorOf(cursor: string | undefined): { nextCursor?: string } {
  return cursor === undefined ? {} : { nextCursor: cursor };
}

/** A gated block back as resource contents (a note that replaced a blob stays text). */
function contentsOf(block: ContentBlock, uri: string): ResourceContents {
  if (block.type === 'resource') return block.resource;
  if (block.type === 'text') return { uri, text: block.text };
  return { uri, text: '[Switchyard: omitted content the host cannot relay]' };
}

/** Whether a remote server's URL is on this machine (its app may then reach loopback too). */
function onLoopback(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}
