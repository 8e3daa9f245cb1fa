import fs from 'node:fs/promises';
import { configPath, switchyardHome } from '../config/paths';
import { isRecord } from '../../protocol/guards';
import type { SecretStore } from '../secrets/secret-store';
import { openInBrowser, type AuthDeps } from './auth';
import type { CliIo } from './io';

/**
 * The production dependencies of `switchyard auth`. The server's URL is read from the user's
 * config.json entry (`{"type": "http" | "sse", "url": ...}`); once the remote-server schema is
 * in config/ this reads it from there. The secret store is the one `secrets/` provides.
 */
export function authDeps(io: CliIo, openStore: () => Promise<SecretStore>): AuthDeps {
  return {
    store: openStore,
    openUrl: (url) => openInBrowser(url, io.platform),
    serverUrl: async (name) => {
      const file = configPath(switchyardHome(io.env, io.platform), io.platform);
      let json: unknown;
      try {
        json = JSON.parse(await fs.readFile(file, 'utf8'));
      } catch {
        return { error: `cannot read ${file}; add the server first` };
      }
      const servers = isRecord(json) ? json['mcpServers'] : undefined;
      const entry = isRecord(servers) ? servers[name] : undefined;
      if (!isRecord(entry)) return { error: `no server '${name}' in ${file}` };
      const url = entry['url'];
      if (typeof url !== 'string' || (entry['type'] !== 'http' && entry['type'] !== 'sse')) {
        return {
          error: `'${name}' is not a remote server (an entry with "type": "http" or "sse" and a "url")`,
        };
      }
      return { url };
    },
  };
}
