import type { ClientMetadataUrlSetting } from './client-metadata-setting';
import type { SecretStore } from '../secrets/secret-store';
import { BUILTIN_TOOL_NAMES } from '../../protocol/builtin-tools';
import { SEARCH_TOOLS_NAME } from '../../protocol/tool-search';
import type { ServerSummary } from '../../protocol/servers';
import type { AuditLog } from '../audit/audit-log';
import type { RestartPolicy } from '../mcp/restart-policy';
import type { EraVerdicts } from '../mcp/era-verdicts';
import type { ServerRuntime } from '../mcp/server-runtime';
import type { LaunchFn } from '../mcp/runtime-types';
import { ApprovalLedger } from '../policy/approvals';
import type { ToolPolicyRules } from '../policy/tool-policy';
import { ProfileStore, type ProfileWriter } from '../profiles/store';
import type { ServerSpec } from '../shared/server-spec';
import type { TrustStore } from '../trust/trust-store';
import { CallPipeline, type CallPipelineOptions } from './call-pipeline';
import { ConfigApply } from './config-apply';
import type { HostCoreEvents } from './core-types';
import { LaunchTrust } from './launch-trust';
import { ServerFleet } from './server-fleet';
import { SettingsWrites, type PolicyWriter } from './settings-writes';
import { ToolCatalog } from './tool-catalog';
import { ToolGate } from './tool-gate';
import { ServerContext } from './server-context';
import { ElicitationDesk } from './elicitations';
import { safeText } from '../../protocol/untrusted/gate';

/**
 * Builds the host core's parts from its options and wires their events together: the one place
 * that knows which part tells which (a server's state change drops the listing and is reported
 * with its token cost, a policy change re-lists every server's tools).
 */

export interface HostCoreOptions {
  readonly servers: readonly ServerSpec[];
  readonly spawnServer: LaunchFn;
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly trust: TrustStore;
  readonly toolPolicy: ToolPolicyRules;
  readonly savePolicy?: PolicyWriter;
  readonly audit?: AuditLog;
  readonly ledger?: ApprovalLedger;
  readonly events?: HostCoreEvents;
  readonly restartPolicy?: RestartPolicy;
  /** How each launch negotiated before (decision 0016); default: every start probes. */
  readonly eraVerdicts?: EraVerdicts;
  readonly reservedToolNames?: ReadonlySet<string>;
  readonly wrapResult?: CallPipelineOptions['wrapResult'];
  /** The profiles in force (design D10); default: the built-in default profile only. */
  readonly profiles?: ProfileStore;
  /** Writes `profiles` in config.json (`profiles/set`, `profiles/remove`). */
  readonly saveProfiles?: ProfileWriter;
  /** The servers' stderr log files; flushed on shutdown like the audit log. */
  readonly serverLogs?: { flush(): Promise<void> };
  /**
   * Ended once every server has stopped: the guardian, with nothing left to kill, exits, and the
   * pid record is removed (issue 13).
   */
  readonly groupWatchers?: ReadonlyArray<{ close(): void | Promise<void> }>;
  /** The secret store (opened on first need), where sign-ins keep their tokens. */
  readonly secrets?: () => Promise<SecretStore>;
  /**
   * Where a sign-in resolves a pre-registered client's `${VAR}` secret (then the secret store);
   * default this process's environment and platform.
   */
  readonly variableEnv?: { readonly env: NodeJS.ProcessEnv; readonly platform: NodeJS.Platform };
  /**
   * `oauthClientMetadataUrl` in config.json: sign-ins use it as the client id where offered. A
   * reload replaces it (the launcher reads the same setting).
   */
  readonly clientMetadataUrl?: ClientMetadataUrlSetting;
}

export interface CoreParts {
  readonly gate: ToolGate;
  readonly fleet: ServerFleet;
  readonly catalog: ToolCatalog;
  readonly launch: LaunchTrust;
  readonly calls: CallPipeline;
  readonly settings: SettingsWrites;
  readonly reload: ConfigApply;
  readonly profiles: ProfileStore;
  readonly context: ServerContext;
  readonly elicitations: ElicitationDesk;
}

/** `summarize` reports a server as the facade does (its state with its listing's cost). */
export function assembleCore(
  options: HostCoreOptions,
  summarize: (runtime: ServerRuntime) => ServerSummary,
): CoreParts {
  const events = options.events ?? {};
  const profiles = options.profiles ?? new ProfileStore();
  const { trust, audit, savePolicy, saveProfiles, wrapResult } = options;
  const elicitations = new ElicitationDesk({
    ...(events.onElicitationRequested === undefined
      ? {}
      : { announce: events.onElicitationRequested.bind(events) }),
    settled: (id, action, by) => events.onElicitationSettled?.(id, action, by),
    log: (level, message, server) => events.onLog?.(level, message, server),
    ...(audit === undefined
      ? {}
      : {
          record: (entry) => {
            audit.append(entry);
          },
        }),
  });
  const gate = new ToolGate({
    trust,
    rules: options.toolPolicy,
    ledger: options.ledger ?? new ApprovalLedger(),
  });
  const fleet = new ServerFleet(options.servers, {
    spawnServer: options.spawnServer,
    clientInfo: options.clientInfo,
    ...(options.restartPolicy ? { restartPolicy: options.restartPolicy } : {}),
    ...(options.eraVerdicts ? { eraVerdicts: options.eraVerdicts } : {}),
    // MCP roots: the workspace folders of the profiles that enable the server (design D3, D10).
    rootsOf: (spec) => profiles.rootsOf(spec),
    events: {
      // Only running servers contribute tools, so any transition can change the listing. These
      // events fire only once servers start, after every part below exists.
      onStateChange: (r) => {
        tools.invalidate();
        events.onServerChanged?.(summarize(r));
      },
      onToolsChanged: (r) => {
        tools.invalidate();
        events.onToolsChanged?.(r.name);
      },
      onLog: (level, message, server) => events.onLog?.(level, message, server),
      onElicitation: (r, params, signal) => elicitations.ask(r.name, params, signal),
      // A question asked during a call that has ended answers nothing any more.
      onRequestsIdle: (r) => {
        elicitations.cancelFor(r.name);
      },
      onFeatureNotice: (r, notice) => {
        events.onServerNotice?.(
          notice.kind === 'resource-updated'
            ? { kind: notice.kind, server: r.name, uri: safeText(notice.uri) }
            : { kind: notice.kind, server: r.name },
        );
      },
    },
  });
  const reserved = options.reservedToolNames ?? new Set([...BUILTIN_TOOL_NAMES, SEARCH_TOOLS_NAME]);
  const tools = new ToolCatalog({ fleet, gate, profiles, trust, reserved });
  const invalidateAllTools = (): void => {
    tools.invalidate();
    for (const r of fleet.allRuntimes()) events.onToolsChanged?.(r.name);
  };
  const launch = new LaunchTrust({ fleet, catalog: tools, trust, audit });
  const settings = new SettingsWrites({
    ...{ fleet, catalog: tools, gate, profiles, audit, savePolicy, saveProfiles },
    invalidateAllTools,
  });
  const reload = new ConfigApply(
    {
      ...{ fleet, catalog: tools, gate, launchTrust: launch, settings, trust, events },
      ...{ summarize, invalidateAllTools },
    },
    options.toolPolicy,
  );
  const calls = new CallPipeline({ fleet, catalog: tools, gate, profiles, audit, wrapResult });
  const context = new ServerContext({ fleet, profiles });
  return {
    ...{ gate, fleet, catalog: tools, launch, calls, settings, reload, profiles, context },
    elicitations,
  };
}
