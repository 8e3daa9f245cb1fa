import type { Profile } from '../../protocol/profiles';
import { ConfigError } from '../config/load';
import { updateConfigFile } from '../config/write';
import { configUpdateError } from '../config/config-error-details';
import { parseProfiles } from './load';

/**
 * Writes `profiles` in config.json on the user's behalf (`profiles/set`, `profiles/remove`),
 * through updateConfigFile: the file is re-read and parsed strictly first (a file broken by hand
 * is never overwritten), other keys and other profiles are kept as written, and the new file is
 * written atomically. Each returns the profiles as the file now has them.
 */

/** Creates `profile`, or replaces the entry with its id where it stands (order decides ties). */
export async function writeProfile(file: string, profile: Profile): Promise<Profile[]> {
  const raw = await update(file, (list) => {
    const at = list.findIndex((entry) => idOf(entry) === profile.id);
    const written = structuredClone(profile);
    if (at < 0) list.push(written);
    else list[at] = written;
  });
  return parseProfiles(raw['profiles'], file).profiles;
}

/** Removes every entry with id `id`; `removed` is false when there was none. */
export async function deleteProfile(
  file: string,
  id: string,
): Promise<{ removed: boolean; profiles: Profile[] }> {
  let removed = false;
  const raw = await update(file, (list) => {
    for (let i = list.length - 1; i >= 0; i--) {
      if (idOf(list[i]) !== id) continue;
      list.splice(i, 1);
      removed = true;
    }
  });
  return { removed, profiles: parseProfiles(raw['profiles'], file).profiles };
}

async function update(
  file: string,
  change: (list: unknown[]) => void,
): Promise<Record<string, unknown>> {
  try {
    return await updateConfigFile(file, (config) => {
      const current = config['profiles'] ?? [];
      if (!Array.isArray(current)) {
        throw new ConfigError({
          file,
          key: 'profiles',
          detail:
            '"profiles" is not a list of profiles; fix it by hand (or remove it), then try again',
        });
      }
      const list = Array.from<unknown>(current);
      change(list);
      config['profiles'] = list;
    });
  } catch (error) {
    throw error instanceof ConfigError ? configUpdateError(error) : error;
  }
}

function idOf(entry: unknown): unknown {
  return typeof entry === 'object' && entry !== null && 'id' in entry ? entry.id : undefined;
}
