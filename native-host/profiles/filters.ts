import type { Profile, ProfileMode } from '../../protocol/profiles';
import { normalizeFolder } from '../config/workspace';
import type { Hint } from '../shared/tool-definition';
import { globMatches } from '../policy/glob';

/**
 * Which servers and tools a profile lets the model see (design D10). Pure. The host enforces
 * these on every listing and every call: a tool a profile hides does not exist for that call.
 *
 * Error direction: showing a tool the profile hides is the dangerous one (the model can call it);
 * hiding one it shows costs the user an edit of the profile. Every doubt hides.
 */

/** Where a configured server comes from, as far as profiles care. */
export interface ServerPlace {
  readonly name: string;
  /** The workspace folder its launch fields came from; null for the user tier. */
  readonly workspaceRoot: string | null;
}

/** The server's claims about a tool (untrusted: they may only hide more, never grant). */
export interface ToolClaims {
  readonly readOnlyHint: Hint;
  readonly destructiveHint: Hint;
}

/**
 * Whether `profile` enables `server`. A `servers` list names exactly the servers it enables.
 * Without one, every server is enabled except the workspace servers of another profile's folder:
 * user-tier servers, servers of the folders listed in `workspaces` (shared by every profile), and
 * the servers of the profile's own workspace folder.
 */
export function profileEnablesServer(
  profile: Profile,
  server: ServerPlace,
  sharedWorkspaces: ReadonlySet<string>,
): boolean {
  if (profile.servers !== undefined) return profile.servers.includes(server.name);
  if (server.workspaceRoot === null || sharedWorkspaces.has(server.workspaceRoot)) return true;
  return (
    profile.workspace !== undefined && normalizeFolder(profile.workspace) === server.workspaceRoot
  );
}

/**
 * Whether a tool of a given kind may be shown in `mode`. `read-only` shows only tools that claim
 * `readOnlyHint: true` and do not also claim to be destructive; `standard` hides a tool that
 * declares `destructiveHint: true` or sends a malformed one (a claim that may only tighten, D8);
 * `full` shows everything.
 */
export function modeShows(mode: ProfileMode, claims: ToolClaims): boolean {
  const destructive = claims.destructiveHint === true || claims.destructiveHint === 'malformed';
  switch (mode) {
    case 'full':
      return true;
    case 'standard':
      return !destructive;
    case 'read-only':
      return claims.readOnlyHint === true && !destructive;
  }
}

/** `include` (omitted: everything) less `exclude`, as globs over exposed names. */
export function filtersShow(profile: Profile, exposedName: string): boolean {
  if (profile.exclude?.some((glob) => globMatches(glob, exposedName)) === true) return false;
  return profile.include === undefined || profile.include.some((g) => globMatches(g, exposedName));
}

/** Whether `profile` shows the tool `exposedName` of `server`: server, filters and mode. */
export function profileShowsTool(
  profile: Profile,
  tool: { readonly server: ServerPlace; readonly exposedName: string; readonly claims: ToolClaims },
  sharedWorkspaces: ReadonlySet<string>,
): boolean {
  return (
    profileEnablesServer(profile, tool.server, sharedWorkspaces) &&
    filtersShow(profile, tool.exposedName) &&
    modeShows(profile.mode, tool.claims)
  );
}
