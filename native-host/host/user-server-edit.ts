import { isRecord } from '../../protocol/guards';
import { HostError } from '../shared/host-error';
import {
  unknownEntry,
  userTier,
  workspaceServer,
  writeUserServer,
  type AddedServer,
  type UserServersContext,
} from './user-servers';

/**
 * The popup's Edit of a local server (issue 14): the launch fields of a config.json entry
 * replaced as a whole, checked as `servers/add` checks them, its other keys (prefix, timeouts,
 * apps) kept. Unlike an add, nothing is approved: an edit arrives in a message, and the host never
 * starts a command a message changed without the user approving what would run (design.md §2), so
 * a launch that differs from the approved one waits at the gate with its card naming the change.
 */

/** The entry's launch as it should be; an env value of `null` keeps the one written. */
export interface ServerEdit {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string | null>>;
  readonly cwd: string | null;
}

/**
 * Replaces the launch fields of config.json's local entry `name` with `edit`. Env values are
 * secrets the page is never sent: `null` keeps the value the entry has (an error names a key it
 * does not have), a key left out is removed.
 */
export async function updateUserServer(
  name: string,
  edit: ServerEdit,
  context: UserServersContext,
): Promise<AddedServer> {
  const { setup, configFile, servers } = await userTier(context);
  if (!isRecord(servers[name])) {
    const existing = setup.specs.find((spec) => spec.name === name);
    if (existing?.provenance === 'workspace') throw workspaceServer(name, existing.workspaceRoot);
    throw unknownEntry(name, configFile);
  }
  // The values to keep are read from the entry as it is under config.json's lock: removed or
  // changed meanwhile (another host, an editor), what the edit keeps is what is there now.
  return writeUserServer(
    name,
    (entry) => {
      if (entry === undefined) throw unknownEntry(name, configFile);
      if (typeof entry['command'] !== 'string') {
        throw new HostError(
          'invalid-params',
          `Server '${name}' is a remote server: add it again with its URL to change it; nothing was changed.`,
          { server: name },
        );
      }
      const written = isRecord(entry['env']) ? entry['env'] : {};
      const env: Record<string, string> = {};
      for (const [key, value] of Object.entries(edit.env)) {
        const kept = value ?? written[key];
        if (typeof kept !== 'string') {
          throw new HostError(
            'invalid-params',
            `Server '${name}' has no value for ${key} to keep: give one; nothing was changed.`,
            { server: name },
          );
        }
        env[key] = kept;
      }
      return {
        name,
        command: edit.command,
        args: edit.args,
        env,
        ...(edit.cwd === null ? {} : { cwd: edit.cwd }),
      };
    },
    { replace: true, approve: false },
    context,
  );
}
