import type { BuiltinToolName } from '../../protocol/builtin-tools';
import type { ParamsOf, ResultOf } from '../../protocol/methods';
import type { TokenBudget } from '../../protocol/profiles';
import type { CallToolOptions, HostToolCallOutcome } from './approval-flow';
import type { BuiltinTools } from './builtin-tools';
import type { ConnectionState } from '../messaging/connection';
import { ClientRequestError, HostRequestError } from './host-errors';
import type { Log } from './request-table';
import {
  OUTCOME_TEXT,
  type ApprovalPrompter,
  type ToolRouter,
  type ToolSpec,
} from './tool-outcome';
import type { ToolOutcome } from '../messaging/agent-events';
import { callResultText } from './tool-result-text';
import {
  sanitizeUntrusted,
  wrapUntrusted,
  type RandomBytes,
  type UntrustedSource,
} from './untrusted-text';

/**
 * The production ToolRouter: built-in browser tools run here, everything else goes to the host
 * by exposed name (the host never splits names, design D4). Built-in tools ask the user unless
 * autopilot is on or the user said "always"; MCP tools ask when the host's policy says so, and
 * autopilot never grants them (design D8). Every failure becomes an outcome the model can read.
 */

/** The part of HostClient the router uses. */
export interface HostTools {
  readonly state: ConnectionState;
  request(method: 'tools/list', params: ParamsOf<'tools/list'>): Promise<ResultOf<'tools/list'>>;
  callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    options: CallToolOptions,
  ): Promise<HostToolCallOutcome>;
}

/** The user's choices for built-in tools (persisted by the options page later). */
export interface BuiltinApprovals {
  /** Autopilot: built-in tools run without asking. Never applies to MCP tools. */
  autopilot(): boolean;
  isAlwaysAllowed(name: BuiltinToolName): boolean;
  allowAlways(name: BuiltinToolName): void;
}

/** In-memory BuiltinApprovals: everything asks until allowed. */
export function memoryBuiltinApprovals(
  autopilot = false,
): BuiltinApprovals & { setAutopilot(on: boolean): void } {
  let on = autopilot;
  const always = new Set<BuiltinToolName>();
  return {
    autopilot: () => on,
    setAutopilot: (value) => {
      on = value;
    },
    isAlwaysAllowed: (name) => always.has(name),
    allowAlways: (name) => {
      always.add(name);
    },
  };
}

export interface ToolRouterOptions {
  readonly builtins: BuiltinTools;
  readonly host: HostTools;
  readonly approvals?: BuiltinApprovals;
  readonly log?: Log;
  readonly random?: RandomBytes;
  /** The active profile's id (design D10), read at every listing and call. */
  readonly profile?: () => string | undefined;
}

/** The production router also reports the token budget of its last MCP listing. */
export interface HostToolRouter extends ToolRouter {
  /** The active profile's budget as of the last listing; null when it sets none. */
  budget(): TokenBudget | null;
}

export function createToolRouter(options: ToolRouterOptions): HostToolRouter {
  const { builtins, host } = options;
  const approvals = options.approvals ?? memoryBuiltinApprovals();
  const log = options.log ?? (() => undefined);
  /** Exposed name -> (server, tool), from the last listing: labels for wrapping results. */
  let sources = new Map<string, UntrustedSource>();
  let lastBudget: TokenBudget | null = null;
  const profileParam = (): { profile?: string } => {
    const profile = options.profile?.();
    return profile === undefined ? {} : { profile };
  };

  const wrapServerText = (text: string, name: string): string =>
    wrapUntrusted(
      sanitizeUntrusted(text),
      sources.get(name) ?? { server: 'mcp', tool: name },
      options.random,
    );

  const failure = (error: unknown, name: string): ToolOutcome => {
    if (error instanceof HostRequestError) {
      switch (error.reason) {
        case 'denied':
          return {
            status: 'denied',
            content: `Denied by the user's tool policy. ${error.message}`,
          };
        case 'cancelled':
          return { status: 'cancelled', content: OUTCOME_TEXT.stoppedDuringRun };
        case 'server-error':
        case 'server-exited':
          // The message quotes the server (its error or its stderr): untrusted.
          return {
            status: 'error',
            content: `The tool failed (${error.reason}); it may or may not have had an effect.\n${wrapServerText(error.message, name)}`,
          };
        case 'timeout':
          return {
            status: 'error',
            content: `The tool did not answer in time; it may or may not have had an effect. ${error.message}`,
          };
        case 'approval-required':
        case 'approval-invalid':
        case 'unknown-tool':
        case 'unknown-profile':
        case 'server-unavailable':
          return { status: 'error', content: `Not run (${error.reason}): ${error.message}` };
        case 'result-too-large':
          return {
            status: 'error',
            content: `The tool ran, but its result was too large to relay: ask for less (a narrower query or a smaller range). ${error.message}`,
          };
        case 'invalid-params':
        case 'invalid-request':
        case 'unknown-method':
        case 'unknown-server':
        case 'protocol-mismatch':
        case 'config-invalid':
        case 'fingerprint-mismatch':
        case 'not-pending':
        case 'already-exists':
        case 'workspace-server':
        case 'internal':
          return {
            status: 'error',
            content: `The call failed (${error.reason}): ${error.message}`,
          };
      }
    }
    if (error instanceof ClientRequestError) {
      switch (error.reason) {
        case 'cancelled':
          return { status: 'cancelled', content: OUTCOME_TEXT.stoppedDuringRun };
        case 'disconnected':
          return {
            status: 'error',
            content: `The call did not finish: ${error.message} It may or may not have run.`,
          };
        case 'not-connected':
          return { status: 'error', content: `Not run: ${error.message}` };
        case 'timeout':
        case 'invalid-response':
          return {
            status: 'error',
            content: `The call failed: ${error.message} It may or may not have run.`,
          };
      }
    }
    return {
      status: 'error',
      content: `The call failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  };

  const callBuiltin = async (
    name: BuiltinToolName,
    args: Readonly<Record<string, unknown>>,
    prompt: ApprovalPrompter,
  ): Promise<ToolOutcome> => {
    if (!approvals.autopilot() && !approvals.isAlwaysAllowed(name)) {
      const decision = await prompt({ kind: 'builtin', tool: name, arguments: args });
      switch (decision) {
        case 'deny':
          return { status: 'denied', content: OUTCOME_TEXT.userDenied };
        case 'always':
          approvals.allowAlways(name);
          break;
        case 'allow-once':
          break;
      }
    }
    return builtins.run(name, args);
  };

  const callHost = async (
    name: string,
    args: Readonly<Record<string, unknown>>,
    signal: AbortSignal,
    prompt: ApprovalPrompter,
  ): Promise<ToolOutcome> => {
    try {
      const outcome = await host.callTool(
        name,
        { ...args },
        {
          signal,
          onApprovalRequired: (request) => prompt({ kind: 'mcp', request }),
          ...profileParam(),
        },
      );
      switch (outcome.status) {
        case 'denied-by-user':
          return { status: 'denied', content: OUTCOME_TEXT.userDenied };
        case 'result': {
          const source = sources.get(name) ?? { server: 'mcp', tool: name };
          const content = callResultText(outcome.result, source, options.random);
          const status = outcome.result.isError === true ? 'error' : 'ok';
          return outcome.policyError === undefined
            ? { status, content }
            : {
                status,
                content,
                notice: `"Always allow" could not be saved for ${name} (${outcome.policyError.message}). This call ran once; the next one will ask again.`,
              };
        }
      }
    } catch (error) {
      return failure(error, name);
    }
  };

  return {
    async list(): Promise<readonly ToolSpec[]> {
      const specs: ToolSpec[] = [...builtins.specs];
      const state = host.state.state;
      if (state !== 'connected' && state !== 'connecting') return specs;
      let listing: ResultOf<'tools/list'>;
      try {
        listing = await host.request('tools/list', profileParam());
      } catch (error) {
        log('warn', `tools/list failed; this run has the built-in tools only (${String(error)})`);
        return specs;
      }
      const next = new Map<string, UntrustedSource>();
      for (const tool of listing.tools) {
        // The host leaves denied tools out and reserves built-in names; fail closed regardless.
        if (tool.policy === 'deny' || builtins.has(tool.name)) continue;
        next.set(tool.name, { server: tool.server, tool: tool.tool });
        specs.push({
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema,
          source: {
            kind: 'mcp',
            server: tool.server,
            tool: tool.tool,
            tokens: tool.tokens,
            policy: tool.policy,
          },
        });
      }
      sources = next;
      lastBudget = listing.budget ?? null;
      return specs;
    },

    budget: () => lastBudget,

    call(name, args, signal, prompt) {
      return builtins.has(name)
        ? callBuiltin(name, args, prompt)
        : callHost(name, args, signal, prompt);
    },
  };
}
