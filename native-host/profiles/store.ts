import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DEFAULT_PROFILE_ID,
  defaultProfileOf,
  resolveProfile,
  type Profile,
  type ProfileResolution,
} from '../../protocol/profiles';
import { normalizeFolder } from '../config/workspace';
import { HostError } from '../shared/host-error';
import { canonicalJson } from '../shared/canonical-json';
import {
  profileEnablesServer,
  profileShowsTool,
  type ServerPlace,
  type ToolClaims,
} from './filters';

/**
 * The profiles in force in this host (design D10): the user's list from config.json and the
 * default profile, which servers each enables, which tools each shows, which URL selects which,
 * and the MCP roots each server is offered. In memory; config.json is written by write.ts and a
 * write or a reload hands the new list to `replace`.
 */

/** What the configuration says about profiles. */
export interface ProfileSetup {
  readonly profiles: readonly Profile[];
  /** The folders of `workspaces` in config.json, normalized: their servers serve every profile. */
  readonly sharedWorkspaces: readonly string[];
}

/** An MCP root (`roots/list`): a folder as a file:// URI. */
export interface McpRoot {
  readonly uri: string;
  readonly name: string;
}

const NO_PROFILES: ProfileSetup = { profiles: [], sharedWorkspaces: [] };

/** Writes `profiles` in config.json; each returns the profiles as the file now has them. */
export interface ProfileWriter {
  set(profile: Profile): Promise<readonly Profile[]>;
  remove(id: string): Promise<{ readonly removed: boolean; readonly profiles: readonly Profile[] }>;
}

export class ProfileStore {
  private profiles: readonly Profile[];
  private shared: ReadonlySet<string>;
  private applied: string;
  private revision = 0;

  constructor(setup: ProfileSetup = NO_PROFILES) {
    this.profiles = [...setup.profiles];
    this.shared = new Set(setup.sharedWorkspaces.map(normalizeFolder));
    this.applied = canonicalJson(this.setup());
  }

  /** Changes whenever the profiles in force change: listings computed before are stale. */
  get version(): number {
    return this.revision;
  }

  /** What is in force now, as a setup (to change one part of it). */
  setup(): ProfileSetup {
    return { profiles: [...this.profiles], sharedWorkspaces: [...this.shared] };
  }

  /** Puts `setup` in force (after a write, or a reload of config.json); false if nothing changed. */
  replace(setup: ProfileSetup): boolean {
    const profiles = [...setup.profiles];
    const shared = new Set(setup.sharedWorkspaces.map(normalizeFolder));
    const next = canonicalJson({ profiles, sharedWorkspaces: [...shared] });
    if (next === this.applied) return false;
    this.applied = next;
    this.profiles = profiles;
    this.shared = shared;
    this.revision += 1;
    return true;
  }

  /** The user's profiles other than the default, in resolution order, and the default. */
  list(): { profiles: Profile[]; defaultProfile: Profile } {
    return {
      profiles: this.profiles.filter((p) => p.id !== DEFAULT_PROFILE_ID),
      defaultProfile: defaultProfileOf(this.profiles),
    };
  }

  /** Every profile in force, the default first. */
  all(): Profile[] {
    const { profiles, defaultProfile } = this.list();
    return [defaultProfile, ...profiles];
  }

  /** The profile with `id`; the default when `id` is undefined. Unknown: `unknown-profile`. */
  get(id: string | undefined): Profile {
    if (id === undefined || id === DEFAULT_PROFILE_ID) return defaultProfileOf(this.profiles);
    const profile = this.profiles.find((p) => p.id === id);
    if (profile === undefined) {
      throw new HostError(
        'unknown-profile',
        `No profile has the id '${id}'. List profiles again (it may have been removed) and resolve the tab's URL with 'profiles/resolve'.`,
        { id },
      );
    }
    return profile;
  }

  resolve(url: string): ProfileResolution {
    return resolveProfile(this.profiles, url);
  }

  enables(profile: Profile, server: ServerPlace): boolean {
    return profileEnablesServer(profile, server, this.shared);
  }

  shows(
    profile: Profile,
    tool: {
      readonly server: ServerPlace;
      readonly exposedName: string;
      readonly claims: ToolClaims;
    },
  ): boolean {
    return profileShowsTool(profile, tool, this.shared);
  }

  /**
   * The roots offered to `server`: the workspace folders of every profile that enables it (the
   * default profile included), each once, in profile order. A server runs once for all profiles,
   * so it sees the union; a server no such profile enables is offered none.
   */
  rootsOf(server: ServerPlace): McpRoot[] {
    const folders: string[] = [];
    for (const profile of this.all()) {
      if (profile.workspace === undefined || !this.enables(profile, server)) continue;
      const folder = normalizeFolder(profile.workspace);
      if (!folders.includes(folder)) folders.push(folder);
    }
    return folders.map((folder) => ({
      uri: pathToFileURL(folder).href,
      name: path.basename(folder) || folder,
    }));
  }
}
