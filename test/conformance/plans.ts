/**
 * What the conformance adapter asks the host to do for each client scenario of
 * `@modelcontextprotocol/conformance` 0.1.16 (its `src/scenarios/client/`). The suite's server
 * records what the client did; the adapter only gets it there through the host's methods. The
 * handshake, the SSE reconnection and OAuth are the host's own business, so for those a scenario
 * needs no more than a listing and the one call its server expects.
 */

export interface ToolCallPlan {
  /** The tool's name as the scenario's server lists it (the host exposes it with a prefix). */
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  /** A text the result must contain, when the scenario's server answers something checkable. */
  readonly expectText?: string;
}

export interface ScenarioPlan {
  /** The tool to call after listing, or none: listing is all the scenario asks. */
  readonly call?: ToolCallPlan;
  /**
   * The scenario's client (its `MCP_CONFORMANCE_CONTEXT`) is a machine-to-machine one: the entry
   * says `"grant": "client_credentials"` (SEP-1046), and nobody signs in.
   */
  readonly machineClient?: boolean;
  /**
   * config.json's `oauthClientMetadataUrl` (SEP-991): the URL Switchyard's client ID metadata
   * document would be published at. The suite's authorization server checks that it is the
   * client id and does not fetch it.
   */
  readonly clientMetadataUrl?: string;
}

/** The name the host's server entry gets; its tools are exposed as `conformance__<tool>`. */
export const SERVER_NAME = 'conformance';

const plans: Readonly<Record<string, ScenarioPlan>> = {
  // A server that answers initialize and an empty tools/list; the checks read the initialize.
  initialize: {},
  // tools_call.ts: the check passes only if add_numbers ran; it answers "The sum of a and b is c".
  tools_call: {
    call: { tool: 'add_numbers', arguments: { a: 5, b: 3 }, expectText: 'The sum of 5 and 3 is 8' },
  },
  // elicitation-defaults.ts: the tool sends elicitation/create during the call and checks the
  // defaults the client applied to an accepted, empty answer.
  'elicitation-sep1034-client-defaults': {
    call: { tool: 'test_client_elicitation_defaults', arguments: {} },
  },
  // sse-retry.ts: the call's SSE stream is closed after its priming event; the result comes on
  // the GET stream the client must reopen after `retry` ms, with Last-Event-ID.
  'sse-retry': {
    call: {
      tool: 'test_reconnection',
      arguments: {},
      expectText: 'Reconnection test completed successfully',
    },
  },
};

/** Every auth scenario's server (auth/helpers/createServer.ts) lists one tool behind OAuth. */
const AUTH_PLAN: ScenarioPlan = { call: { tool: 'test-tool', arguments: {} } };

/** SEP-1046's scenarios: the same call, with the suite's client as a machine client. */
const MACHINE_PLANS: Readonly<Record<string, ScenarioPlan>> = {
  'auth/client-credentials-basic': { ...AUTH_PLAN, machineClient: true },
  'auth/client-credentials-jwt': { ...AUTH_PLAN, machineClient: true },
};

/** auth/basic-cimd's expected URL client id (its `client-metadata.json`). */
const SUITE_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

const CIMD_PLANS: Readonly<Record<string, ScenarioPlan>> = {
  'auth/basic-cimd': { ...AUTH_PLAN, clientMetadataUrl: SUITE_CLIENT_METADATA_URL },
};

/** The plan for `scenario`; an unknown scenario gets a listing only. */
export function planFor(scenario: string): ScenarioPlan {
  if (Object.hasOwn(plans, scenario)) return plans[scenario] ?? {};
  if (Object.hasOwn(MACHINE_PLANS, scenario)) return MACHINE_PLANS[scenario] ?? {};
  if (Object.hasOwn(CIMD_PLANS, scenario)) return CIMD_PLANS[scenario] ?? {};
  if (scenario.startsWith('auth/')) return AUTH_PLAN;
  return {};
}
