import type { ServerLaunch, ServerSpec } from '../shared/server-spec';

/** What the runtime launches for `spec`: exactly its fingerprinted definition (design D6). */
export function launchOf(spec: ServerSpec): ServerLaunch {
  return {
    name: spec.name,
    // The launcher spawns exactly the fingerprinted definition; without one it reports why.
    executable: spec.definition?.executable ?? null,
    notFound: spec.resolutionError?.message ?? null,
    notFoundReason:
      spec.resolutionError === null || spec.resolutionError.reason === 'not-found'
        ? 'command-not-found'
        : 'spawn-failed',
    command: spec.command,
    args: spec.definition?.args ?? spec.args,
    env: spec.definition?.env ?? spec.env,
    cwd: spec.definition?.cwd ?? undefined,
    remote: spec.definition?.remote ?? null,
    handshakeTimeoutMs: spec.handshakeTimeoutMs,
    toolTimeoutMs: spec.toolTimeoutMs,
    apps: spec.apps,
  };
}
