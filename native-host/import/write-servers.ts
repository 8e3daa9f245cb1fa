import { ConfigError } from '../config/load';
import { updateConfigFile } from '../config/write';
import { HostError } from '../shared/host-error';
import { configUpdateError } from '../config/config-error-details';
import { writtenEntry, type NewUserServer } from '../host/written-entry';
import { isRecord } from '../../protocol/guards';
import { WRITTEN_TYPE } from './convert-remote';
import { isRemoteImport, type ImportedEntry } from './types';

/**
 * Turning an imported entry into what the user-tier writer (host/user-servers.ts) takes. That
 * writer approves exactly the launch it writes, so an imported server starts without asking,
 * like one added from the popup or with `switchyard add`.
 *
 * An entry the source client has switched off is first written switched off and unapproved, then
 * handed to the writer with `replace`, which approves it and keeps `disabled`: at no moment can a
 * reloading host see it enabled, so it never starts on its own.
 */

/** The launch fields of `entry` for the user-tier writer: a remote one as `switchyard add --url`
 * writes it (`type`, `url`, `headers` unexpanded). */
export function newUserServer(name: string, entry: ImportedEntry): NewUserServer {
  if (isRemoteImport(entry)) {
    const transport = WRITTEN_TYPE[entry.remote.transport];
    return {
      name,
      url: entry.remote.url,
      ...(transport === undefined ? {} : { transport }),
      headers: { ...entry.remote.headers },
      ...(entry.remote.oauth === undefined ? {} : { oauth: entry.remote.oauth }),
    };
  }
  return {
    name,
    command: entry.command,
    args: [...entry.args],
    env: { ...entry.env },
    ...(entry.cwd === undefined ? {} : { cwd: entry.cwd }),
  };
}

/**
 * For a switched-off entry: writes it to config.json with `"disabled": true` (refusing a name
 * that is taken meanwhile). Returns whether the writer must then be called with `replace`.
 */
export async function prepareImport(
  configFile: string,
  name: string,
  entry: ImportedEntry,
): Promise<{ replace: boolean }> {
  if (entry.disabled !== true) return { replace: false };
  try {
    await updateConfigFile(configFile, (config) => {
      const servers = isRecord(config['mcpServers']) ? config['mcpServers'] : {};
      if (Object.hasOwn(servers, name)) {
        throw new HostError(
          'already-exists',
          `A server named '${name}' is already in ${configFile}; import it under another name.`,
          { server: name },
        );
      }
      Object.defineProperty(servers, name, {
        value: { ...writtenEntry(newUserServer(name, entry)), disabled: true },
        enumerable: true,
        writable: true,
        configurable: true,
      });
      config['mcpServers'] = servers;
    });
  } catch (error) {
    throw error instanceof ConfigError ? configUpdateError(error) : error;
  }
  return { replace: true };
}
