import type { BuiltinToolName } from '../../protocol/builtin-tools';
import type { ResultOf } from '../../protocol/methods';
import type { TokenBudget } from '../../protocol/profiles';
import { SEARCH_TOOLS_NAME } from '../../protocol/tool-search';
import type { ApprovalRequest, CallToolResult } from '../../protocol/tools';
import type { CallProgress, ToolOutcome } from '../messaging/agent-events';
import type { ApprovalDecision } from '../messaging/approvals';
import { MAX_APP_RESULT_CHARS, type ToolApp } from '../messaging/conversation';
import type { ConnectionState } from '../messaging/connection';
import type { ToolSearchView } from '../messaging/ui-protocol';
import { resolveApproval } from './approval-flow';
import { ACTIVE_TAB_MOVED, actsOnActiveTab, type BuiltinTools } from './builtin-tools';
import { outcomeOfFailure } from './call-failure';
import type { RequestFailure } from './host-errors';
import { sendApprovedToolCall, sendToolCall, type HostRequester } from './host-tool-call';
import type { Log, ProgressParams } from './request-table';
import {
  OUTCOME_TEXT,
  type ApprovalPrompter,
  type ToolRouter,
  type ToolSpec,
} from './tool-outcome';
import { ToolSearchCatalog } from './tool-search-mode';
import type { ImageDecoder } from './image-content';
import { callResultContent } from './tool-result-text';
import { wrapUntrusted, type RandomBytes, type UntrustedSource } from './untrusted-text';

/**
 * The production ToolRouter: built-in browser tools run here, everything else goes to the host
 * by exposed name (the host never splits names, design D4). Built-in tools ask the user unless
 * autopilot is on or the user said "always"; MCP tools ask when the host's policy says so, and
 * autopilot never grants them (design D8): the router sends the call, asks the user when the host
 * answers `approval-required`, and re-sends it bound to the approval (`callMcpTool`). Every
 * failure becomes an outcome the model can read (call-failure.ts).
 */

/** The part of HostClient the router uses. */
export interface HostTools extends HostRequester {
  readonly state: ConnectionState;
}

/** How an MCP call through the host's approval gate ended, before the model is told. */
export type McpCallOutcome =
  | {
      readonly status: 'result';
      readonly result: CallToolResult;
      /** Present when the user was asked. */
      readonly approval?: {
        readonly request: ApprovalRequest;
        readonly decision: ApprovalDecision;
      };
      /** "Always" could not be saved (the call still ran once, as the user allowed it). */
      readonly policyError?: RequestFailure;
    }
  | { readonly status: 'denied-by-user'; readonly request: ApprovalRequest };

export interface McpCallOptions {
  /** Shows the host's approval request to the user and resolves with their decision. */
  readonly ask: (request: ApprovalRequest) => Promise<ApprovalDecision>;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ProgressParams) => void;
  /** The active profile (design D10); the host refuses a tool it hides. Omitted: default. */
  readonly profile?: string;
  /** The call is an MCP App's, of this server (issue 12), not the model's. */
  readonly app?: { readonly server: string };
}

/**
 * One MCP call through the host's approval gate (design D8), step by step: send it; if the host
 * asks for an approval, let the user decide (approval-flow.ts); if they allow it, re-send it
 * bound to that approval. Throws the host's or the client's failure (outcomeOfFailure reads it).
 */
export async function callMcpTool(
  host: HostRequester,
  name: string,
  args: Record<string, unknown> | undefined,
  options: McpCallOptions,
): Promise<McpCallOutcome> {
  const { signal, onProgress } = options;
  const requestOptions = {
    ...(signal === undefined ? {} : { signal }),
    ...(onProgress === undefined ? {} : { onProgress }),
  };
  const params = {
    name,
    ...(args === undefined ? {} : { arguments: args }),
    ...(options.profile === undefined ? {} : { profile: options.profile }),
    ...(options.app === undefined ? {} : { app: { server: options.app.server } }),
  };
  const first = await sendToolCall(host, params, requestOptions);
  if (first.kind === 'result') return { status: 'result', result: first.result };
  const { request } = first;
  const resolution = await resolveApproval(host, request, options.ask, signal);
  switch (resolution.kind) {
    case 'denied':
      return { status: 'denied-by-user', request };
    case 'approved': {
      const result = await sendApprovedToolCall(host, params, resolution.approval, requestOptions);
      return {
        status: 'result',
        result,
        approval: { request, decision: resolution.decision },
        ...(resolution.policyError === undefined ? {} : { policyError: resolution.policyError }),
      };
    }
  }
}

/** What a call's app is given: its result as the host relayed it, unless too large to keep. */
function appOf(
  page: { server: string; tool: string; uri: string },
  result: CallToolResult,
): ToolApp {
  return JSON.stringify(result).length <= MAX_APP_RESULT_CHARS
    ? { ...page, result }
    : { ...page, result: { content: [] }, truncated: true };
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
  /** Decodes a result's images before they are passed on (image-decode.ts); absent: not decoded. */
  readonly decodeImage?: ImageDecoder;
  /**
   * The profile (design D10) a listing is made for, asked at each listing: a run's calls all go
   * with the one its listing had, whatever the tab shows meanwhile. Null when it cannot be
   * known: that listing then has no MCP tools, and its run calls none (fail closed, never the
   * host's default). Absent: listings and calls go without one (the host's default profile).
   */
  readonly profile?: () => Promise<string | null>;
}

/** What one listing saw, which the calls of the run it was made for go by. */
interface Listing {
  /** The `profile` param of its calls; null when the profile could not be known. */
  readonly profile: { readonly profile?: string } | null;
  /** Exposed name -> (server, tool): labels for wrapping results. */
  readonly sources: ReadonlyMap<string, UntrustedSource>;
  /** Exposed name -> the tool's MCP App page, for tools that have one (issue 12). */
  readonly apps: ReadonlyMap<string, { server: string; tool: string; uri: string }>;
  /** The search catalog while tool search mode is on. */
  readonly search: ToolSearchCatalog | null;
  readonly budget: TokenBudget | null;
  readonly specs: readonly ToolSpec[];
}

/** The production router also reports the token budget of its last MCP listing. */
export interface HostToolRouter extends ToolRouter {
  /**
   * The tools a run would be offered now, for the context meter: a listing like `list()`'s that
   * leaves the running run's tools, profile and search catalog as they are.
   */
  preview(): Promise<readonly ToolSpec[]>;
  /** The active profile's budget as of the last listing or preview; null when it sets none. */
  budget(): TokenBudget | null;
  /** Tool search mode as of the last listing or preview (docs/decisions/0027); null when off. */
  toolSearch(): ToolSearchView | null;
  discovered(): readonly ToolSpec[];
}

export function createToolRouter(options: ToolRouterOptions): HostToolRouter {
  const { builtins, host } = options;
  const approvals = options.approvals ?? memoryBuiltinApprovals();
  const log = options.log ?? (() => undefined);
  const empty = (profile: Listing['profile']): Listing => ({
    profile,
    sources: new Map(),
    apps: new Map(),
    search: null,
    budget: null,
    specs: builtins.specs,
  });
  /** The listing the current (or last) run was given: its calls go by it. */
  let run: Listing = empty({});
  /** The last listing or preview: what the meter shows. */
  let shown: Listing = run;
  /**
   * How many listings and previews were begun: one that ends after a newer one began (a run
   * stopped while it listed, then another started) is dropped, never the newer one's.
   */
  let runsBegun = 0;
  let previewsBegun = 0;

  // The host's error messages are already through its untrusted-text gate: wrap only.
  const wrapServerText = (text: string, name: string): string =>
    wrapUntrusted(text, run.sources.get(name) ?? { server: 'mcp', tool: name }, options.random);

  const callBuiltin = async (
    name: BuiltinToolName,
    args: Readonly<Record<string, unknown>>,
    prompt: ApprovalPrompter,
  ): Promise<ToolOutcome> => {
    if (!approvals.autopilot() && !approvals.isAlwaysAllowed(name)) {
      // The card stands for the tab in front of the user when it appeared: a call on the active
      // tab must not act on another one the user switched to before answering.
      const onActiveTab = actsOnActiveTab(name, args);
      const shownOn = onActiveTab ? await builtins.activeTabId() : undefined;
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
      if (onActiveTab && (await builtins.activeTabId()) !== shownOn) {
        return { status: 'error', content: ACTIVE_TAB_MOVED };
      }
    }
    return builtins.run(name, args);
  };

  const callHost = async (
    name: string,
    args: Readonly<Record<string, unknown>>,
    signal: AbortSignal,
    prompt: ApprovalPrompter,
    onProgress?: (progress: CallProgress) => void,
  ): Promise<ToolOutcome> => {
    const { profile, sources, apps } = run;
    if (profile === null) return { status: 'error', content: OUTCOME_TEXT.profileUnknown };
    let outcome: McpCallOutcome;
    try {
      outcome = await callMcpTool(
        host,
        name,
        { ...args },
        {
          signal,
          ask: (request) => prompt({ kind: 'mcp', request }),
          ...(onProgress === undefined
            ? {}
            : {
                onProgress: ({ progress, total, message }) => {
                  onProgress({
                    progress,
                    ...(total === undefined ? {} : { total }),
                    ...(message === undefined ? {} : { message }),
                  });
                },
              }),
          ...profile,
        },
      );
    } catch (error) {
      return outcomeOfFailure(error, (text) => wrapServerText(text, name));
    }
    switch (outcome.status) {
      case 'denied-by-user':
        return { status: 'denied', content: OUTCOME_TEXT.userDenied };
      case 'result': {
        const source = sources.get(name) ?? { server: 'mcp', tool: name };
        const { content, images } = await callResultContent(outcome.result, source, options);
        const status = outcome.result.isError === true ? 'error' : 'ok';
        const page = apps.get(name);
        const app = page === undefined ? {} : { app: appOf(page, outcome.result) };
        const pictures = images.length === 0 ? {} : { images };
        return outcome.policyError === undefined
          ? { status, content, ...app, ...pictures }
          : {
              status,
              content,
              ...app,
              ...pictures,
              notice: `"Always allow" could not be saved for ${name} (${outcome.policyError.message}). This call ran once; the next one will ask again.`,
            };
      }
    }
  };

  /** Lists the host's tools for the profile asked now; never throws (built-ins only then). */
  const listing = async (): Promise<Listing> => {
    const state = host.state.state;
    if (state !== 'connected' && state !== 'connecting') return empty({});
    let profile: Listing['profile'] = {};
    if (options.profile !== undefined) {
      const id = await options.profile();
      if (id === null) {
        log(
          'warn',
          "the active tab's profile could not be resolved; this run has the built-in tools only",
        );
        return empty(null);
      }
      profile = { profile: id };
    }
    let result: ResultOf<'tools/list'>;
    try {
      result = await host.request('tools/list', profile);
    } catch (error) {
      log('warn', `tools/list failed; this run has the built-in tools only (${String(error)})`);
      return empty(profile);
    }
    const mcp: ToolSpec[] = [];
    const sources = new Map<string, UntrustedSource>();
    const apps = new Map<string, { server: string; tool: string; uri: string }>();
    for (const tool of result.tools) {
      // The host leaves denied tools out and reserves built-in names; fail closed regardless.
      if (tool.policy === 'deny' || builtins.has(tool.name)) continue;
      // The host leaves out tools only an app may call; fail closed regardless.
      if (tool.ui !== undefined && !tool.ui.visibility.includes('model')) continue;
      sources.set(tool.name, { server: tool.server, tool: tool.tool });
      if (tool.ui?.resourceUri !== undefined) {
        apps.set(tool.name, { server: tool.server, tool: tool.tool, uri: tool.ui.resourceUri });
      }
      mcp.push({
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
    // In search mode the model is offered search_tools and the pinned tools; every tool stays
    // callable by name once found, through the host as ever.
    const search = result.search === undefined ? null : new ToolSearchCatalog(mcp, result.search);
    return {
      profile,
      sources,
      apps,
      search,
      budget: result.budget ?? null,
      specs: [...builtins.specs, ...(search === null ? mcp : search.offered())],
    };
  };

  return {
    async list(): Promise<readonly ToolSpec[]> {
      const begun = ++runsBegun;
      const listed = await listing();
      if (begun === runsBegun) {
        run = listed;
        shown = listed;
      }
      return listed.specs;
    },

    async preview(): Promise<readonly ToolSpec[]> {
      const begun = ++previewsBegun;
      const listed = await listing();
      if (begun === previewsBegun) shown = listed;
      return listed.specs;
    },

    budget: () => shown.budget,
    toolSearch: () => shown.search?.view() ?? null,
    discovered: () => run.search?.found() ?? [],

    call(name, args, signal, prompt, onProgress) {
      const { search } = run;
      if (name === SEARCH_TOOLS_NAME && search !== null) {
        return Promise.resolve(search.search(args, options.random));
      }
      return builtins.has(name)
        ? callBuiltin(name, args, prompt)
        : callHost(name, args, signal, prompt, onProgress);
    },
  };
}
