import type { TrustDecision } from '../../protocol/activity';
import type { ApprovalUse, StoredApproval, UnapprovedPins } from '../../protocol/approvals';
import type { ConsentRequest, LaunchChange } from '../../protocol/servers';
import type { AuditLog } from '../audit/audit-log';
import type { ServerRuntime } from '../mcp/server-runtime';
import { HostError } from '../shared/host-error';
import type { ServerSpec } from '../shared/server-spec';
import { launchFingerprint } from '../trust/fingerprint';
import type { TrustSnapshot, TrustStore } from '../trust/trust-store';
import { consentRequest, shown } from './launch-gate';
import type { ServerFleet } from './server-fleet';
import type { ToolCatalog } from './tool-catalog';
import { compareCodeUnits } from '../shared/compare';
import { displayUrl } from '../../protocol/remote-url';

/**
 * Launch trust (design D6): a server starts only when the trust store approves exactly what
 * would run; otherwise it waits at the gate with a consent request, and nothing is spawned. The
 * user approves one fingerprint, revokes a server or a whole workspace, or forgets an approval.
 * With no UI to ask, the gate fails closed.
 */

export interface LaunchTrustOptions {
  readonly fleet: ServerFleet;
  readonly catalog: ToolCatalog;
  readonly trust: TrustStore;
  readonly audit: AuditLog | undefined;
}

export class LaunchTrust {
  constructor(private readonly options: LaunchTrustOptions) {}

  /**
   * The consent request for a server whose launch is not approved; undefined when it is. Reads
   * the trust store, or answers from `snapshot` when one was just read.
   */
  async consentFor(
    spec: ServerSpec,
    snapshot?: TrustSnapshot,
  ): Promise<ConsentRequest | undefined> {
    if (spec.definition === null) return undefined;
    const status = snapshot
      ? snapshot.launchStatus(spec.scope, spec.name, spec.definition)
      : await this.options.trust.launchStatus(spec.scope, spec.name, spec.definition);
    if (status.state === 'approved') return undefined;
    const changes: LaunchChange[] | null = status.state === 'changed' ? status.changes : null;
    return consentRequest({
      server: spec.name,
      command: spec.command,
      definition: spec.definition,
      sourceFile: spec.sourceFile,
      ignoredTrustClaims: spec.ignoredTrustClaims,
      changes,
    });
  }

  /** Starts `runtime` if its launch is approved; otherwise holds it at the gate with a request. */
  async startGated(runtime: ServerRuntime, snapshot?: TrustSnapshot): Promise<void> {
    const { fleet } = this.options;
    if (!fleet.isCurrent(runtime)) return;
    const consent = await this.consentFor(fleet.spec(runtime.name), snapshot);
    if (!fleet.isCurrent(runtime)) return;
    if (consent) {
      // Fail closed (D6): nothing is spawned until the user approves this exact definition. A
      // server still running (or starting) when its approval went away (revoked from the CLI or
      // another host) is stopped by this: the gate's "no" leaves nothing of it, and an approval
      // later does not start a second process beside the first.
      await runtime.awaitApproval(consent);
      this.options.audit?.append({
        event: 'launch',
        server: runtime.name,
        decision: 'ask',
        outcome: 'needs-approval',
        fingerprint: consent.fingerprint,
      });
      return;
    }
    // A command that was not found has no definition: start() fails with the reason, runs nothing.
    await runtime.start();
  }

  /** Consent requests of every server waiting at the launch gate. */
  pending(): ConsentRequest[] {
    const requests: ConsentRequest[] = [];
    for (const runtime of this.options.fleet.allRuntimes()) {
      if (runtime.state.state === 'needs-approval') requests.push(runtime.state.consent);
    }
    return requests;
  }

  /**
   * Consent requests of every server whose launch is not approved, computed from the trust store
   * without starting anything (for the CLI's `trust` command).
   */
  async unapproved(): Promise<ConsentRequest[]> {
    const snapshot = await this.options.trust.snapshot();
    const requests: ConsentRequest[] = [];
    for (const spec of this.options.fleet.allSpecs()) {
      const consent = await this.consentFor(spec, snapshot);
      if (consent) requests.push(consent);
    }
    return requests;
  }

  /**
   * Approves a server's launch, but only if `fingerprint` is what would run now (no swap between
   * what the card showed and what runs), then (unless `start` is false) starts exactly that
   * definition. Resolves to the server's runtime as configured afterwards.
   */
  async approve(
    name: string,
    fingerprint: string,
    options: { start?: boolean } = {},
  ): Promise<ServerRuntime> {
    const { fleet, trust } = this.options;
    const runtime = fleet.runtime(name);
    const spec = fleet.spec(name);
    const waiting =
      runtime.state.state === 'needs-approval' || (await this.consentFor(spec)) !== undefined;
    if (!waiting || spec.definition === null) {
      throw new HostError(
        'not-pending',
        `Server '${name}' is not waiting for approval (it is ${runtime.state.state}).`,
        { server: name, state: runtime.state.state },
      );
    }
    const current = launchFingerprint(spec.definition);
    if (current !== fingerprint) {
      throw new HostError(
        'fingerprint-mismatch',
        `What '${name}' would run has changed since the request you approved; review the new request.`,
        { server: name, consent: await this.consentFor(spec) },
      );
    }
    await trust.approveLaunch(spec.scope, name, spec.definition);
    this.record(name, 'approved', current);
    // A reload may have replaced or dropped the server while trust.json was written, or the host
    // may be shutting down: that runtime must never spawn (nothing would stop it). A disabled
    // server is approved ahead of time and stays off until the user turns it on.
    if (options.start !== false && !spec.disabled && fleet.isCurrent(runtime)) {
      await runtime.start();
    }
    return fleet.runtime(name);
  }

  /** Revokes launch trust of one server, or of every server of a workspace; they stop and ask again. */
  async revoke(
    target: { server: string } | { workspace: string },
    options: { restart?: boolean } = {},
  ): Promise<ServerRuntime[]> {
    const { fleet, trust, catalog } = this.options;
    const affected =
      'server' in target
        ? [fleet.spec(target.server)]
        : fleet.allSpecs().filter((s) => s.workspaceRoot === target.workspace);
    if ('server' in target) {
      const spec = affected[0];
      if (spec) await trust.revokeLaunch(spec.scope, spec.name);
    } else {
      // A workspace's revoke takes its pins too: the gate must not go on reading them as held,
      // or the first call allowed after approval would not pin its definition again.
      await trust.revokeScope(target.workspace);
      catalog.reloadPins(affected, await trust.snapshot());
    }
    const runtimes: ServerRuntime[] = [];
    for (const spec of affected) {
      this.record(spec.name, 'revoked');
      const runtime = fleet.runtime(spec.name);
      if (options.restart !== false) {
        // Revoking stops the server now; the gate then holds it until approved again.
        await runtime.stop();
        await this.startGated(runtime);
      }
      runtimes.push(runtime);
    }
    return runtimes;
  }

  /**
   * Forgets the launch approval and tool pins of `name` in `scope` (default: the server's own
   * scope, else the user tier): also one left behind by a server that is no longer configured.
   * A configured server of that scope stops and waits at the launch gate again. `runtime` is the
   * server's, or null when no server of that name is configured in that scope (or a reload
   * dropped it meanwhile).
   */
  async forget(
    name: string,
    scope?: string,
  ): Promise<{ launch: boolean; pins: number; runtime: ServerRuntime | null }> {
    const { fleet, trust, catalog } = this.options;
    const spec = fleet.findSpec(name);
    const target = scope ?? spec?.scope ?? 'user';
    const forgotten = await trust.forgetServer(target, name);
    this.record(name, 'forgotten');
    // Another scope's approval: the configured server of that name is not what was forgotten.
    if (spec === undefined || spec.scope !== target) return { ...forgotten, runtime: null };
    const runtime = fleet.runtime(name);
    catalog.reloadPins([spec], await trust.snapshot());
    await runtime.stop();
    await this.startGated(runtime);
    return { ...forgotten, runtime: fleet.isConfigured(runtime) ? runtime : null };
  }

  /**
   * Every stored launch approval and whether a configured server uses it, and every server with
   * pins but no approval (`trust/list`), by scope (`user` first) and then name. Paths and arguments are shown as on the consent card; a
   * remote URL as `servers/list` shows it (`displayUrl`).
   */
  async list(): Promise<{ approvals: StoredApproval[]; unapprovedPins: UnapprovedPins[] }> {
    const snapshot = await this.options.trust.snapshot();
    const specs = this.options.fleet.allSpecs();
    const listed = snapshot.approvals().map(({ scope, server, approval, pins }) => {
      const spec = specs.find((s) => s.name === server && s.scope === scope);
      const use: ApprovalUse =
        spec === undefined
          ? 'unconfigured'
          : spec.definition !== null && launchFingerprint(spec.definition) === approval.fingerprint
            ? 'in-use'
            : 'changed';
      const { definition } = approval;
      return {
        server,
        scope,
        fingerprint: approval.fingerprint,
        approvedAt: approval.approvedAt,
        // A remote URL masked as servers/list shows it: this list is for review (and screenshots),
        // not consent, and a key in the query has no business on it.
        executable: shown(
          definition.remote === undefined
            ? definition.executable
            : displayUrl(definition.remote.url),
        ),
        args: definition.args.map(shown),
        use,
        pins,
      };
    });
    return {
      approvals: listed.sort(byScopeThenServer),
      unapprovedPins: snapshot.unapprovedPins().sort(byScopeThenServer),
    };
  }

  /** Records a trust decision in the audit log (also one made outside this class). */
  record(server: string, decision: TrustDecision, fingerprint?: string): void {
    this.options.audit?.append({
      event: 'trust',
      server,
      decision,
      ...(fingerprint === undefined ? {} : { fingerprint }),
    });
  }
}

/** `user` first, then workspaces; within a scope, by server name. */
function byScopeThenServer(
  a: { scope: string; server: string },
  b: { scope: string; server: string },
): number {
  const order = (scope: string): string => (scope === 'user' ? '' : scope);
  return order(a.scope) === order(b.scope)
    ? compareCodeUnits(a.server, b.server)
    : compareCodeUnits(order(a.scope), order(b.scope));
}
