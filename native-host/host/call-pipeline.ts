import type { CallToolResult } from '../../protocol/tools';
import type { AuditLog } from '../audit/audit-log';
import type { CallOptions } from '../mcp/runtime-types';
import { policyOverlay } from '../profiles/policy';
import type { ProfileStore } from '../profiles/store';
import { HostError } from '../shared/host-error';
import { gateCallResult } from './result-gate';
import type { ServerFleet } from './server-fleet';
import type { ToolCatalog } from './tool-catalog';
import type { ListedTool } from './tool-listing';
import { appsTurnedOff } from '../mcp/app-page';
import { unavailableError } from '../mcp/runtime-errors';
import { ToolGate, type CallDecision } from './tool-gate';
import { stageClock } from '../shared/stage-clock';

/**
 * One `tools/call`: route the exposed name to its server and raw tool (design D4), hide what the
 * active profile hides (D10), decide allow / ask / deny with the approval bound to these
 * arguments (D7, D8), call the server, pass the result through the result gate (D9), and audit
 * the call without its values.
 */

export interface CallPipelineOptions {
  readonly fleet: ServerFleet;
  readonly catalog: ToolCatalog;
  readonly gate: ToolGate;
  readonly profiles: ProfileStore;
  readonly audit: AuditLog | undefined;
  /** Wraps model-bound result text in an untrusted-data block (design D9). */
  readonly wrapResult:
    ((text: string, source: { server: string; tool: string }) => string) | undefined;
}

export type ToolCallOptions = CallOptions & {
  approval?: { requestId: string; nonce: string };
  profile?: string;
  /** The call comes from this server's MCP App, not from the model. */
  app?: { server: string };
};

interface Admitted {
  readonly listed: ListedTool;
  readonly decision: CallDecision;
  readonly audit: (outcome: string, result?: CallToolResult) => void;
}

export class CallPipeline {
  constructor(private readonly options: CallPipelineOptions) {}

  /**
   * Calls a tool by its exposed name through the policy gate: `deny` never reaches the server,
   * `ask` needs an approval bound to these arguments. The result has been through the result gate.
   */
  async call(
    name: string,
    args: Record<string, unknown> | undefined,
    options: ToolCallOptions = {},
  ): Promise<CallToolResult> {
    stageClock?.enter('policy');
    let admitted: Admitted;
    try {
      admitted = this.admit(name, args, options);
    } finally {
      stageClock?.leave();
    }
    const { listed, decision, audit } = admitted;
    if (decision.kind !== 'run') {
      audit(decision.error.reason);
      throw decision.error;
    }
    if (decision.pin) await this.options.catalog.pin(listed);
    const runtime = this.options.fleet.runtime(listed.server);
    try {
      const raw = await runtime.callTool(listed.definition.name, args, options);
      const wrap = this.options.wrapResult;
      stageClock?.enter('result-gate');
      let result: CallToolResult;
      try {
        result = gateCallResult(
          raw,
          undefined,
          wrap
            ? (text) => wrap(text, { server: listed.server, tool: listed.definition.name })
            : undefined,
        );
      } finally {
        stageClock?.leave();
      }
      audit(result.isError === true ? 'tool-error' : 'ok', result);
      return result;
    } catch (error) {
      audit(error instanceof HostError ? error.reason : 'internal');
      throw error;
    }
  }

  /**
   * Routing and policy, before anything is sent: the listed tool the name means under the active
   * profile, the gate's decision, and the call's audit function. Throws HostError for a name that
   * does not exist here.
   */
  private admit(
    name: string,
    args: Record<string, unknown> | undefined,
    options: ToolCallOptions,
  ): Admitted {
    const { fleet, catalog, gate } = this.options;
    const profile = this.options.profiles.get(options.profile);
    const listed = catalog.current().byName.get(name);
    // A tool the active profile hides does not exist for this call (design D10): the same answer
    // as an unknown name, before any policy or approval is looked at, so an approval issued
    // under another profile cannot be redeemed where the tool is hidden.
    if (!listed || !catalog.shows(profile, listed)) {
      const withdrawn = listed ? undefined : catalog.withdrawn(name, profile);
      if (withdrawn !== undefined) {
        throw unavailableError(withdrawn.server, fleet.runtime(withdrawn.server).state.state);
      }
      throw new HostError(
        'unknown-tool',
        `No tool is exposed as '${name}'. List tools again: the server may have stopped, changed its tools, or be waiting for approval.`,
        { name },
      );
    }
    this.checkCaller(listed, name, options.app);
    const started = Date.now();
    const decision: CallDecision = gate.check(
      fleet.spec(listed.server).scope,
      listed,
      args,
      options.approval,
      policyOverlay(profile),
    );
    const audit = (outcome: string, result?: CallToolResult): void => {
      const durationMs = Date.now() - started;
      stageClock?.enter('audit');
      // Built after the reply has gone out: hashing the arguments and the result is audit
      // bookkeeping, not part of the call's latency. Neither object is modified afterwards (the
      // arguments are the dispatcher's parsed copy; the result is only serialized).
      this.options.audit?.append(() => ({
        event: 'call',
        server: listed.server,
        tool: listed.definition.name,
        exposedName: name,
        profile: profile.id,
        ...(options.app === undefined ? {} : { caller: 'app' }),
        decision: decision.kind === 'run' ? decision.policy : decision.kind,
        ...(decision.rule === null ? {} : { rule: decision.rule }),
        outcome,
        ...gate.argumentsFacts(args),
        ...(result ? ToolGate.resultFacts(result) : {}),
        durationMs,
      }));
      stageClock?.leave();
    };
    return { listed, decision, audit };
  }

  /**
   * Who may call a tool (MCP Apps visibility): a tool only its app may call does not exist for the
   * model, and an app may call only its own server's tools that allow it, while its apps are on.
   */
  private checkCaller(listed: ListedTool, name: string, app: { server: string } | undefined): void {
    const visibility = listed.exposed.ui?.visibility;
    if (app === undefined) {
      if (visibility === undefined || visibility.includes('model')) return;
      throw new HostError(
        'unknown-tool',
        `No tool is exposed as '${name}' to the model: only its server's app may call it.`,
        { name },
      );
    }
    if (this.options.fleet.findSpec(app.server)?.apps === false) throw appsTurnedOff(app.server);
    if (listed.server !== app.server || (visibility !== undefined && !visibility.includes('app'))) {
      throw new HostError(
        'unknown-tool',
        `The app of server '${app.server}' may not call '${name}': an app may call only its own server's tools that allow it.`,
        { name },
      );
    }
  }

  /** Refuses a pending approval: it can never be redeemed. */
  deny(requestId: string): boolean {
    const denied = this.options.gate.deny(requestId);
    if (denied === undefined) return false;
    this.options.audit?.append({ event: 'call', ...denied, decision: 'denied', outcome: 'denied' });
    return true;
  }
}
