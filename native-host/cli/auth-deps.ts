import { readClientMetadataUrl } from '../config/client-metadata-url';
import { loadConfigFile } from '../config/load';
import { configPath, switchyardHome } from '../config/paths';
import { createSecretStore } from '../secrets/create-secret-store';
import { messageOf } from '../../protocol/guards';
import { openInBrowser, type AuthDeps } from './auth';
import type { CliIo } from './io';

/**
 * The production dependencies of `switchyard auth`: the server's URL from config.json, read by
 * the host's own loader (so an entry the host would refuse cannot be signed in to, and every
 * shape the host accepts can: `type` `http`/`sse`, a bare `url`, `serverUrl`, `httpUrl`), and
 * the secret store the host uses (decision 0017). The home is found when they are used, so a
 * SWITCHYARD_HOME the host refuses is reported as the command's error, not a stack trace.
 */
export function authDeps(io: CliIo): AuthDeps {
  const home = (): string => switchyardHome(io.env, io.platform);
  return {
    store: async () => createSecretStore({ home: home(), platform: io.platform, env: io.env }),
    openUrl: (url) => openInBrowser(url, io.platform),
    serverUrl: async (name) => {
      let file;
      let servers;
      let raw;
      try {
        file = configPath(home(), io.platform);
        ({ servers, raw } = await loadConfigFile(file));
      } catch (error) {
        return { error: messageOf(error) };
      }
      const entry = servers.find((server) => server.name === name);
      if (entry === undefined) {
        return { error: `no server '${name}' in ${file} (run 'switchyard doctor' for what loads)` };
      }
      if (entry.remote === undefined) {
        return { error: `'${name}' is a local server; only remote servers (a "url") sign in` };
      }
      const metadataUrl = readClientMetadataUrl(raw).url;
      return {
        url: entry.remote.url,
        ...(entry.remote.oauth === undefined ? {} : { oauth: entry.remote.oauth }),
        ...(metadataUrl === undefined ? {} : { clientMetadataUrl: metadataUrl }),
      };
    },
  };
}
