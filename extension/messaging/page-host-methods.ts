import type { RequestMethod } from '../../protocol/methods';

/**
 * Which host methods the extension's pages may call through the worker, and which stay with the
 * agent: every method of the protocol is in exactly one list, checked when it compiles.
 */

/**
 * Host methods a page may call through the worker: an allow-list, so a method added to the
 * protocol later is refused to pages until someone decides otherwise. The agent's own methods stay
 * with the agent: a page never runs a tool (`tools/call`), answers the handshake, or withdraws an
 * approval the agent is holding.
 */
export const PAGE_HOST_METHODS = [
  'servers/list',
  'servers/start',
  'servers/stop',
  'servers/restart',
  'servers/add',
  'servers/remove',
  // The popup's "MCP Apps for <server>" switch: a setting of the user's own entry.
  'servers/setApps',
  // The popup's Edit: what runs changes only after the user approves the new launch's card.
  'servers/update',
  'servers/logs',
  'tools/list',
  'policy/set',
  // The popup's bulk actions over a filtered tool list.
  'policy/setMany',
  'trust/pending',
  'trust/approve',
  'trust/revoke',
  'trust/forget',
  // The options page's review of approvals: what each let run, as its consent card showed it.
  'trust/list',
  'profiles/list',
  'profiles/set',
  'profiles/remove',
  'profiles/resolve',
  'import/preview',
  'import/apply',
  'activity/list',
  'auth/status',
  'auth/signOut',
  // The user's own context (issue 12): browsing, reading and filling in need no approval.
  'resources/list',
  'resources/templates/list',
  'resources/templates/expand',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  // A server's question to the user (issue 12): the side panel shows the card and sends the
  // user's answer; the host checks it against the form again.
  'elicitation/pending',
  'elicitation/respond',
  // An MCP App's page (issue 12 part 4), read part by part for its sandboxed frame.
  'apps/read',
] as const satisfies readonly RequestMethod[];
export type PageHostMethod = (typeof PAGE_HOST_METHODS)[number];

/** The host methods pages may not call; with PAGE_HOST_METHODS, every method is decided. */
export const AGENT_ONLY_HOST_METHODS = [
  'host/hello',
  'tools/call',
  'approvals/deny',
  // The worker's sign-in (page request `auth/signIn`) drives these around launchWebAuthFlow.
  'auth/begin',
  'auth/complete',
] as const;

// Compile-time: a method in neither list (a new one) fails the build here.
type MustBeNever<T extends never> = T;
export type UndecidedHostMethods = MustBeNever<
  Exclude<RequestMethod, PageHostMethod | (typeof AGENT_ONLY_HOST_METHODS)[number]>
>;

export function isPageHostMethod(method: RequestMethod): method is PageHostMethod {
  return (PAGE_HOST_METHODS as readonly string[]).includes(method);
}
