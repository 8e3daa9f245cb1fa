import type { LaunchDefinition } from '../shared/server-spec';
import type { ServerSpec } from '../shared/server-spec';

/**
 * A user-tier ServerSpec for the core's tests: `fake` resolved to /usr/bin/fake, its launch
 * definition built from `args` (default `['server.js']`); `over` replaces any other field.
 */
export function fakeServerSpec(name: string, over: Partial<ServerSpec> = {}): ServerSpec {
  const args = over.args ?? ['server.js'];
  const definition: LaunchDefinition = {
    executable: '/usr/bin/fake',
    args,
    env: {},
    cwd: null,
    provenance: 'user',
    workspaceRoot: null,
  };
  return {
    name,
    command: 'fake',
    args,
    env: {},
    cwd: undefined,
    handshakeTimeoutMs: 5_000,
    toolTimeoutMs: 5_000,
    apps: true,
    prefix: undefined,
    envKeys: [],
    provenance: 'user',
    workspaceRoot: null,
    scope: 'user',
    sourceFile: null,
    ignoredTrustClaims: [],
    definition,
    resolutionError: null,
    resolvedCommand: '/usr/bin/fake',
    shim: null,
    disabled: false,
    remote: null,
    ...over,
  };
}
