import { MAX_PROFILES, type Profile } from '../../protocol/profiles';
import type { ToolPolicyState } from '../../protocol/tools';
import type { AuditLog } from '../audit/audit-log';
import type { ToolPolicyRules } from '../policy/tool-policy';
import { policyOverlay } from '../profiles/policy';
import type { ProfileSetup, ProfileStore, ProfileWriter } from '../profiles/store';
import { HostError } from '../shared/host-error';
import type { ServerFleet } from './server-fleet';
import type { ToolCatalog } from './tool-catalog';
import type { ToolGate } from './tool-gate';

/**
 * The user's settings as the host writes them: tool policy rules (`policy/set`) and profiles
 * (`profiles/set`, `profiles/remove`), each written to config.json and put in force at once. An
 * allow rule, of either kind, pins the definitions it covers now (design D7).
 */

export type PolicyValue = 'allow' | 'ask' | 'deny';

/** One rule to set (or, with null, remove) for an exposed name or glob. */
export interface PolicyChange {
  readonly tool: string;
  readonly policy: PolicyValue | null;
}

/**
 * Applies `changes` in order to the `toolPolicy` rules of config.json, in one write, and returns
 * the rules as now written.
 */
export type PolicyWriter = (changes: readonly PolicyChange[]) => Promise<ToolPolicyRules>;

export interface SettingsWritesOptions {
  readonly fleet: ServerFleet;
  readonly catalog: ToolCatalog;
  readonly gate: ToolGate;
  readonly profiles: ProfileStore;
  readonly audit: AuditLog | undefined;
  readonly savePolicy: PolicyWriter | undefined;
  readonly saveProfiles: ProfileWriter | undefined;
  /** Every server's tools may have changed: drop the listing and tell the listeners. */
  readonly invalidateAllTools: () => void;
}

export class SettingsWrites {
  constructor(private readonly options: SettingsWritesOptions) {}

  /** Sets (or, with null, removes) a policy rule for an exposed name or glob. */
  async setPolicy(
    tool: string,
    policy: PolicyValue | null,
  ): Promise<{ rules: Record<string, PolicyValue>; effective: ToolPolicyState | null }> {
    const { rules, effective } = await this.setPolicies([{ tool, policy }]);
    return { rules, effective: effective.get(tool) ?? null };
  }

  /**
   * `policy/setMany`: the changes in order, as `setPolicy` would make them one by one, but in one
   * write of config.json (the popup's bulk actions over a filtered tool list).
   */
  async setPolicies(changes: readonly PolicyChange[]): Promise<{
    rules: Record<string, PolicyValue>;
    effective: Map<string, ToolPolicyState | null>;
  }> {
    const { catalog, gate } = this.options;
    const save = this.options.savePolicy;
    if (!save) throw new HostError('internal', 'This host cannot write its configuration.');
    const rules = await save(changes);
    gate.setRules(rules);
    const allowed = changes.filter((c) => c.policy === 'allow').map((c) => c.tool);
    if (allowed.length > 0) await catalog.pinMatching(catalog.current().tools, allowed);
    for (const { tool, policy } of changes) {
      this.options.audit?.append({ event: 'policy', rule: tool, decision: policy ?? 'removed' });
    }
    this.options.invalidateAllTools();
    const listed = catalog.current().byName;
    return {
      rules: Object.fromEntries(rules.map((r) => [r.glob, r.value])),
      effective: new Map(changes.map((c) => [c.tool, listed.get(c.tool)?.exposed.policy ?? null])),
    };
  }

  /**
   * Creates or replaces a profile in config.json and puts it in force. The `allow` overrides it
   * adds pin the definitions of the tools they cover now, as `policy/set` does (D7); those it
   * already had pin nothing again. A new workspace
   * folder's servers join when the host reloads config.json (its file watch does so at once).
   */
  async setProfile(profile: Profile): Promise<{ profile: Profile; warnings: string[] }> {
    const { profiles, catalog } = this.options;
    const save = this.writer();
    const written = profiles.setup().profiles;
    if (!written.some((p) => p.id === profile.id) && written.length >= MAX_PROFILES) {
      // One more would be written, then loaded as a stand-in that shows nothing.
      throw new HostError(
        'invalid-params',
        `config.json holds at most ${MAX_PROFILES} profiles; remove one before adding another.`,
      );
    }
    const warnings = this.profileWarnings(profile);
    const before = profiles.setup().profiles.find((p) => p.id === profile.id);
    const allowedBefore = new Set(before === undefined ? [] : allowGlobs(before));
    const saved = await save.set(profile);
    this.applyProfiles({ ...profiles.setup(), profiles: saved });
    const stored = profiles.get(profile.id);
    // Only the allows this write adds: saving a profile again (a rename) is no review of a tool
    // whose definition changed under an allow it already had, which keeps asking (D7).
    const allows = allowGlobs(stored).filter((glob) => !allowedBefore.has(glob));
    await catalog.pinMatching(catalog.view(stored.id).tools, allows);
    this.options.audit?.append({ event: 'policy', profile: stored.id, decision: 'set' });
    return { profile: stored, warnings };
  }

  /** Removes a profile from config.json; false when there was none. `default` goes back to built-in. */
  async removeProfile(id: string): Promise<boolean> {
    const { removed, profiles } = await this.writer().remove(id);
    this.applyProfiles({ ...this.options.profiles.setup(), profiles });
    if (removed) {
      this.options.audit?.append({ event: 'policy', profile: id, decision: 'removed' });
    }
    return removed;
  }

  /**
   * Puts profiles in force (a write, or a reload of config.json): listings are rebuilt, every
   * server's tools may have changed under some profile, and a running server whose roots changed
   * is told so (MCP `notifications/roots/list_changed`; it asks `roots/list` again).
   */
  applyProfiles(setup: ProfileSetup): void {
    const { fleet, profiles } = this.options;
    const rootsText = (name: string): string => {
      const spec = fleet.findSpec(name);
      return JSON.stringify(spec === undefined ? [] : profiles.rootsOf(spec));
    };
    const runtimes = fleet.allRuntimes();
    const before = new Map(runtimes.map((r) => [r.name, rootsText(r.name)]));
    if (!profiles.replace(setup)) return;
    for (const runtime of runtimes) {
      if (before.get(runtime.name) !== rootsText(runtime.name)) runtime.rootsChanged();
    }
    this.options.invalidateAllTools();
  }

  private writer(): ProfileWriter {
    const save = this.options.saveProfiles;
    if (!save) {
      throw new HostError(
        'internal',
        'This host cannot write its configuration (SWITCHYARD_HOME cannot be determined); see host/hello.',
      );
    }
    return save;
  }

  /** What is worth a second look in a profile about to be written (it is written anyway). */
  private profileWarnings(profile: Profile): string[] {
    const warnings: string[] = [];
    for (const server of profile.servers ?? []) {
      if (this.options.fleet.findSpec(server) === undefined) {
        warnings.push(
          `No server named '${server}' is configured; the profile enables it once it is.`,
        );
      }
    }
    if (profile.mode === 'read-only' && Object.values(profile.policy ?? {}).includes('allow')) {
      warnings.push(
        'A read-only profile asks before every call, so its "allow" overrides have no effect.',
      );
    }
    return warnings;
  }
}

/** The globs of a profile's `allow` overrides, normalized as the policy reads them. */
function allowGlobs(profile: Profile): string[] {
  return (policyOverlay(profile)?.rules ?? [])
    .filter((rule) => rule.value === 'allow')
    .map((rule) => rule.glob);
}
