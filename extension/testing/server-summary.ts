import type { ServerState, ServerSummary } from '../../protocol/servers';

/** A configured server as `servers/list` reports it, for tests: a user-tier `node` server. */
export function serverSummary(
  name: string,
  status: ServerState,
  overrides: Partial<ServerSummary> = {},
): ServerSummary {
  return {
    name,
    provenance: 'user',
    workspaceRoot: null,
    disabled: false,
    apps: true,
    command: 'node',
    args: [],
    resolvedCommand: '/usr/bin/node',
    cwd: null,
    envKeys: [],
    remote: null,
    status,
    crashes: null,
    toolCount: 0,
    tokens: 0,
    ...overrides,
  };
}
