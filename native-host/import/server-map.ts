import { ConfigError } from '../config/load';
import { readTransport } from '../config/remote-entry';
import { cannot, convertStdio, droppedKeyNotes, type EntryOutcome } from './convert-entry';
import { convertRemote } from './convert-remote';
import { parseJsonDocument } from './parse-document';
import { ResultBuilder } from './result-builder';
import { shownValue } from './text';
import { isRecord } from '../../protocol/guards';
import type { Dialect } from './variables';
import type { ConvertContext, Converter } from './types';

/**
 * Reading the `mcpServers`-style maps most clients use: `{ "<name>": { "command": ..., "args":
 * [...], "env": {...} } }` (Claude Desktop, Claude Code, Cursor, Windsurf, and VS Code's
 * `servers`), or a remote server's `{ "type": "http", "url": ..., "headers": {...} }` in any of
 * the spellings config.json accepts (config/remote-entry.ts). A wrong shape of the file or of the map rejects the file; a bad entry costs only
 * itself.
 */

/** The file's top level, which must be an object. */
export function rootObject(value: unknown, file: string): Record<string, unknown> {
  if (isRecord(value)) return value;
  throw new ConfigError({
    file,
    detail:
      'the top level is not an object, so this is not a client configuration file; nothing was imported from it',
  });
}

/** The map of servers at `key` of `parent`: undefined when absent, a ConfigError when it is
 * not an object. `where` names `key`'s place in messages (`projects["/src/app"].mcpServers`). */
export function serverMap(
  parent: Readonly<Record<string, unknown>>,
  key: string,
  file: string,
  where: string = key,
): Record<string, unknown> | undefined {
  const value = parent[key];
  if (value === undefined || value === null) return undefined;
  if (isRecord(value)) return value;
  throw new ConfigError({
    file,
    key: where,
    detail:
      'this must be an object mapping server names to entries; nothing was imported from the file. Fix it in its own app and try again',
  });
}

/** Keys of an `mcpServers` entry that are read (or deliberately not imported). */
const KNOWN_KEYS = [
  'command',
  'args',
  'env',
  'cwd',
  'type',
  'transportType',
  'disabled',
  'envFile',
  'url',
  'serverUrl',
  'httpUrl',
  'headers',
  // Claude Code's pre-registered OAuth client: the shape config.json reads.
  'oauth',
];

/** Converts one `mcpServers`-style entry. */
function convertMcpServersEntry(
  raw: unknown,
  dialect: Dialect,
  context: ConvertContext,
  projectDir?: string,
): EntryOutcome {
  if (!isRecord(raw)) {
    return { ok: false, reason: 'cannot convert: the entry is not an object' };
  }
  const envFile = raw['envFile'];
  if (envFile !== undefined && envFile !== null && envFile !== '') {
    const shown = typeof envFile === 'string' ? ` ${shownValue(envFile)}` : '';
    return {
      ok: false,
      reason: `cannot convert: it reads variables from the file${shown} ("envFile"), which Switchyard does not do; copy the variables the server needs into "env" and import again`,
    };
  }
  // The loader's own reading of the transport keys, so an entry is remote here exactly when it
  // would be in config.json.
  const transport = readTransport(raw);
  switch (transport.kind) {
    case 'unsupported':
      return cannot(
        `"${transport.key}" is ${transport.shown === 'this' ? 'a transport it does not name plainly' : transport.shown}; Switchyard connects to stdio, Streamable HTTP ("http") and SSE ("sse") servers only`,
      );
    case 'invalid':
      return cannot(transport.message);
    case 'remote':
      return convertRemote(
        raw,
        KNOWN_KEYS,
        {
          transport: transport.transport,
          urlKey: transport.urlKey,
          url: raw[transport.urlKey],
          headers: raw['headers'],
          oauth: raw['oauth'],
          local: { args: raw['args'], env: raw['env'], cwd: raw['cwd'] },
          disabled: raw['disabled'] === true,
        },
        dialect,
        context,
      );
    case 'stdio':
      break;
  }
  return convertStdio(
    {
      command: raw['command'],
      args: raw['args'],
      env: raw['env'],
      cwd: raw['cwd'],
      disabled: raw['disabled'] === true,
      ...(projectDir === undefined ? {} : { projectDir }),
      notes: droppedKeyNotes(raw, KNOWN_KEYS),
    },
    dialect,
    context,
  );
}

/** Converts every entry of a map into `add`. */
export function convertServerMap(
  servers: Readonly<Record<string, unknown>> | undefined,
  dialect: Dialect,
  context: ConvertContext,
  add: (name: string, outcome: EntryOutcome) => void,
  projectDir?: string,
): void {
  for (const [name, raw] of Object.entries(servers ?? {})) {
    add(name, convertMcpServersEntry(raw, dialect, context, projectDir));
  }
}

/** The converter of a JSON file whose servers are its top-level `mcpServers` map. */
export function mcpServersConverter(dialect: Dialect): Converter {
  return (text, file, context) => {
    const root = rootObject(parseJsonDocument(text, file), file);
    const builder = new ResultBuilder(dialect);
    convertServerMap(serverMap(root, 'mcpServers', file), dialect, context, (name, outcome) => {
      builder.add(name, outcome);
    });
    return builder.result();
  };
}
