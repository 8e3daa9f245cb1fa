import type { Profile, TokenBudget, ToolSearchState } from '../../protocol/profiles';
import type { ExposedTool } from '../../protocol/tools';
import { policyOverlay } from '../profiles/policy';
import type { ProfileStore } from '../profiles/store';
import type { ServerSpec } from '../shared/server-spec';
import type { ToolDefinition } from '../shared/tool-definition';
import type { TrustSnapshot, TrustStore } from '../trust/trust-store';
import type { ProfileCost } from './core-types';
import { buildProfileListing, type ProfileListing } from './profile-listing';
import type { ServerFleet } from './server-fleet';
import type { ToolGate } from './tool-gate';
import { buildToolListing, modelMayCall, type ListedTool, type ToolListing } from './tool-listing';

/**
 * The tools the model may be offered: one listing of every running server's tools with each
 * tool's policy (design D4, D7, D8, D11), each profile's view of it (D10), and the tool pins that
 * policy reads. Listings are built on demand and cached until something they depend on changes;
 * whoever changes that calls `invalidate`.
 */

export interface ToolCatalogOptions {
  readonly fleet: ServerFleet;
  readonly gate: ToolGate;
  readonly profiles: ProfileStore;
  readonly trust: TrustStore;
  /** Exposed names the listing never hands out (the extension's built-in tools). */
  readonly reserved: ReadonlySet<string>;
}

/** A model-facing listing as `tools/list` answers it. */
export interface ToolListAnswer {
  tools: ExposedTool[];
  tokens: { total: number; byServer: Record<string, number> };
  budget?: TokenBudget;
  search?: ToolSearchState;
}

export class ToolCatalog {
  private listing: ToolListing | undefined;
  private pinsLoaded: Promise<void> | undefined;
  /** Each profile's view of a listing, computed on demand and dropped with the listing. */
  private readonly views = new WeakMap<ToolListing, Map<string, ProfileListing>>();
  /**
   * Each exposed name's tool as last listed while its server ran, so a call that arrives just
   * after the server stopped is told the server is unavailable rather than that no such tool
   * exists. Names of servers gone from the config are dropped at the next build.
   */
  private readonly lastListed = new Map<string, ListedTool>();

  constructor(private readonly options: ToolCatalogOptions) {}

  /** Drops the cached listing: a server's state, its tools, a policy or a profile changed. */
  invalidate(): void {
    this.listing = undefined;
  }

  /** The listing of every running server's tools under the user's policy (no profile). */
  current(): ToolListing {
    const { fleet, gate, reserved } = this.options;
    this.listing ??= buildToolListing(
      fleet.allRuntimes().map((r) => ({
        server: r.name,
        prefix: fleet.findSpec(r.name)?.prefix,
        tools: r.state.state === 'running' ? r.tools : [],
        apps: fleet.findSpec(r.name)?.apps ?? true,
      })),
      reserved,
      (server: string, definition: ToolDefinition, exposedName: string) =>
        gate.policyState(fleet.spec(server).scope, server, definition, exposedName),
    );
    for (const [name, listed] of this.lastListed) {
      if (fleet.findSpec(listed.server) === undefined) this.lastListed.delete(name);
    }
    for (const listed of this.listing.tools) this.lastListed.set(listed.exposed.name, listed);
    return this.listing;
  }

  /**
   * The tool `name` was last listed as, if its server is configured but not running now (it
   * crashed, is restarting, or was stopped) and `profile` would show it: the name is not unknown,
   * its server is unavailable. Undefined for a name no running server ever listed.
   */
  withdrawn(name: string, profile: Profile): ListedTool | undefined {
    const current = this.current();
    if (current.byName.has(name)) return undefined;
    const listed = this.lastListed.get(name);
    if (listed === undefined || !this.shows(profile, listed)) return undefined;
    return this.options.fleet.runtime(listed.server).state.state === 'running' ? undefined : listed;
  }

  /** What the model is sent of one server's tools now, in tokens. */
  tokensOf(server: string): number {
    return this.current().tokens.byServer[server] ?? 0;
  }

  /**
   * The model-facing listing under a profile (default: the default profile), optionally of one
   * server; denied tools, and tools only an app may call, only when asked for. A tool the profile
   * hides is not in it (D10).
   */
  list(
    server?: string,
    options: { includeDenied?: boolean; includeAppOnly?: boolean; profile?: string } = {},
  ): ToolListAnswer {
    if (server !== undefined) this.options.fleet.runtime(server);
    const view = this.view(options.profile);
    const tools = view.tools
      .filter((t) => server === undefined || t.server === server)
      .filter((t) => options.includeDenied === true || t.exposed.policy !== 'deny')
      .filter((t) => options.includeAppOnly === true || modelMayCall(t.exposed.ui))
      .map((t) => t.exposed);
    // The budget and the search mode are the whole profile's, whichever server was asked for.
    const budget = {
      ...(view.budget === undefined ? {} : { budget: view.budget }),
      ...(view.search === undefined ? {} : { search: view.search }),
    };
    if (server === undefined) {
      const tokens = { total: view.tokens.total, byServer: { ...view.tokens.byServer } };
      return { tools, tokens, ...budget };
    }
    const own = view.tokens.byServer[server] ?? 0;
    return { tools, tokens: { total: own, byServer: { [server]: own } }, ...budget };
  }

  /** Each profile, the default first, with what its listing costs and its budget (for doctor). */
  costs(): ProfileCost[] {
    return this.options.profiles.all().map((profile) => {
      const view = this.view(profile.id);
      const tools = view.tools.filter(
        (t) => t.exposed.policy !== 'deny' && modelMayCall(t.exposed.ui),
      ).length;
      return { profile, tools, tokens: view.tokens.total, budget: view.budget };
    });
  }

  /** One profile's view of the current listing (cached until the listing or the profiles change). */
  view(id: string | undefined): ProfileListing {
    const { fleet, gate, profiles } = this.options;
    const profile = profiles.get(id);
    const listing = this.current();
    let cache = this.views.get(listing);
    if (cache === undefined) {
      cache = new Map();
      this.views.set(listing, cache);
    }
    const key = `${profiles.version}\u0000${profile.id}`;
    let view = cache.get(key);
    if (view === undefined) {
      const overlay = policyOverlay(profile);
      view = buildProfileListing({
        listing,
        servers: fleet
          .allSpecs()
          .filter((spec) => profiles.enables(profile, spec))
          .map((spec) => spec.name),
        shows: (listed) => this.shows(profile, listed),
        policyOf:
          overlay === undefined
            ? undefined
            : (listed) =>
                gate.policyState(
                  fleet.spec(listed.server).scope,
                  listed.server,
                  listed.definition,
                  listed.exposed.name,
                  overlay,
                ),
        tokenBudget: profile.tokenBudget,
        toolSearch: profile,
      });
      cache.set(key, view);
    }
    return view;
  }

  /** Whether `profile` shows a listed tool: its server, its filters, its mode (D10). */
  shows(profile: Profile, listed: ListedTool): boolean {
    const spec = this.options.fleet.findSpec(listed.server);
    if (spec === undefined) return false;
    return this.options.profiles.shows(profile, {
      server: spec,
      exposedName: listed.exposed.name,
      claims: listed.definition.hints,
    });
  }

  /** Loads every server's pins once, from `snapshot` or from a read of its own. */
  async loadPins(snapshot?: TrustSnapshot): Promise<void> {
    const { fleet, gate, trust } = this.options;
    this.pinsLoaded ??= (async () => {
      gate.loadPins(
        fleet.allSpecs().map((s) => ({ scope: s.scope, server: s.name })),
        snapshot ?? (await trust.snapshot()),
      );
    })();
    await this.pinsLoaded;
    this.invalidate();
  }

  /** Reloads the pins of these servers from `snapshot` (a reload, a forgotten server). */
  reloadPins(servers: readonly ServerSpec[], snapshot: TrustSnapshot): void {
    this.options.gate.loadPins(
      servers.map((s) => ({ scope: s.scope, server: s.name })),
      snapshot,
    );
    this.invalidate();
  }

  /** Pins what the user saw of a tool (design D7): a later change suspends its grants. */
  async pin(listed: ListedTool): Promise<void> {
    const spec = this.options.fleet.spec(listed.server);
    await this.options.gate.pin(spec.scope, listed.server, listed.definition);
    this.invalidate();
  }

  /**
   * Pins every tool of `tools` that one of `globs` matches: an allow rule pins what the user saw
   * when it was granted, so a later change suspends the grant (D7). A suspended tool is pinned
   * anew only by a rule that names it exactly: a pattern over many tools (`fs__*`) is no review
   * of the one whose definition changed, which keeps asking, with the difference on its card.
   */
  async pinMatching(tools: readonly ListedTool[], globs: readonly string[]): Promise<void> {
    if (globs.length === 0) return;
    const { gate, fleet } = this.options;
    for (const listed of tools) {
      const name = listed.exposed.name;
      const matching = globs.filter((glob) => gate.matchesRule(glob, name));
      if (matching.length === 0) continue;
      const named = matching.includes(name);
      const { scope } = fleet.spec(listed.server);
      if (named || !gate.pinChanged(scope, listed.server, listed.definition))
        await this.pin(listed);
    }
  }
}
