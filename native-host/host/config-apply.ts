import type { ServerSummary } from '../../protocol/servers';
import type { ServerRuntime } from '../mcp/server-runtime';
import type { ToolPolicyRules } from '../policy/tool-policy';
import type { ProfileSetup } from '../profiles/store';
import { canonicalJson } from '../shared/canonical-json';
import type { ServerSpec } from '../shared/server-spec';
import { carryOverSkipped, planReload } from './config-reload';
import type { HostCoreEvents } from './core-types';
import type { LaunchTrust } from './launch-trust';
import type { ServerFleet } from './server-fleet';
import type { SettingsWrites } from './settings-writes';
import type { ToolCatalog } from './tool-catalog';
import type { ToolGate } from './tool-gate';
import type { TrustStore } from '../trust/trust-store';
import { messageOf } from '../../protocol/guards';

/**
 * Moves the host to a reloaded configuration (config-reload.ts plans it): dropped servers stop,
 * new and changed ones go through the launch gate (a changed launch asks again, with what
 * changed), unchanged ones are not touched; one whose apps were turned on or off reconnects only
 * if it is connected. A server whose entry is now invalid keeps its running
 * version.
 */

export interface ReloadedConfig {
  readonly specs: readonly ServerSpec[];
  readonly toolPolicy: ToolPolicyRules;
  /** Servers whose entries are invalid now: their running version is kept. */
  readonly skippedServers?: readonly string[];
  readonly profiles?: ProfileSetup;
  /** `oauthClientMetadataUrl` in config.json; absent: dynamic registration from now on. */
  readonly clientMetadataUrl?: string;
}

export interface ConfigApplyOptions {
  readonly fleet: ServerFleet;
  readonly catalog: ToolCatalog;
  readonly gate: ToolGate;
  readonly launchTrust: LaunchTrust;
  readonly settings: SettingsWrites;
  readonly trust: TrustStore;
  readonly events: HostCoreEvents;
  readonly summarize: (runtime: ServerRuntime) => ServerSummary;
  readonly invalidateAllTools: () => void;
}

export class ConfigApply {
  /** The `toolPolicy` of the configuration last applied, to tell a reload that changed it. */
  private appliedPolicy: string;

  constructor(
    private readonly options: ConfigApplyOptions,
    initialPolicy: ToolPolicyRules,
  ) {
    this.appliedPolicy = canonicalJson(initialPolicy);
  }

  /** Resolves once the stops are done; `settled` once the starts are (it never rejects). */
  async apply(setup: ReloadedConfig): Promise<{ settled: Promise<void> }> {
    const { fleet, catalog, gate, launchTrust, events } = this.options;
    if (fleet.isClosed) return { settled: Promise.resolve() };
    const current = fleet.allSpecs();
    const next = carryOverSkipped(current, setup.specs, setup.skippedServers ?? []);
    const plan = planReload(current, next);
    const fresh = new Set([...plan.added, ...plan.replaced]);
    const old = new Map(fleet.allRuntimes().map((r) => [r.name, r]));
    await Promise.all(
      [...plan.removed, ...plan.replaced].map((name) => old.get(name)?.stop() ?? Promise.resolve()),
    );
    const removed = plan.removed.flatMap((name) => {
      const runtime = old.get(name);
      return runtime ? [this.options.summarize(runtime)] : [];
    });
    const before = fleet.install(next, fresh);
    catalog.invalidate();
    // A removed server that was running already announced its tools leaving when it stopped.
    for (const summary of removed) events.onServerRemoved?.(summary);
    const policy = canonicalJson(setup.toolPolicy);
    if (policy !== this.appliedPolicy) {
      this.appliedPolicy = policy;
      gate.setRules(setup.toolPolicy);
      this.options.invalidateAllTools();
    }
    if (setup.profiles !== undefined) this.options.settings.applyProfiles(setup.profiles);

    const snapshot = await this.options.trust.snapshot();
    catalog.reloadPins(
      next.filter((s) => fresh.has(s.name)),
      snapshot,
    );
    const starts: ServerRuntime[] = [];
    for (const spec of next) {
      const runtime = fleet.runtime(spec.name);
      const state = runtime.state.state;
      if (fresh.has(spec.name)) {
        if (!spec.disabled) starts.push(runtime);
      } else if (plan.retuned.includes(spec.name)) {
        const was = before.get(spec.name);
        const appsTurned = was !== undefined && was.apps !== spec.apps;
        // A tool's page is listed only while its server's apps are on.
        if (was?.prefix !== spec.prefix || appsTurned) events.onToolsChanged?.(spec.name);
        if (spec.disabled && state !== 'stopped') await runtime.stop();
        else if (!spec.disabled && was?.disabled === true && state === 'stopped') {
          starts.push(runtime);
        } else if (appsTurned && (state === 'running' || state === 'starting')) {
          // The client declares apps when it connects, so a connected server is told by a new
          // connection. Not a new launch: the gate finds the same fingerprint approved and it
          // starts. A server that is not connected learns it when it next connects.
          await runtime.stop();
          starts.push(runtime);
        } else events.onServerChanged?.(this.options.summarize(runtime));
      } else if (state === 'needs-approval' && !(await launchTrust.consentFor(spec, snapshot))) {
        // Approved meanwhile by another process (`switchyard trust`): start it now.
        starts.push(runtime);
      }
    }
    for (const runtime of starts) runtime.markStarting();
    // Never rejects: a reload is started from a file watcher, with nobody to catch it.
    const settled = Promise.all(starts.map((r) => launchTrust.startGated(r, snapshot))).then(
      () => undefined,
      (error: unknown) => {
        events.onLog?.('error', `starting the reloaded servers failed: ${messageOf(error)}`);
      },
    );
    return { settled };
  }
}
