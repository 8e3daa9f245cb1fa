import { cannot, convertStdio, droppedKeyNotes, type EntryOutcome } from '../convert-entry';
import { convertRemote } from '../convert-remote';
import { ResultBuilder } from '../result-builder';
import { isRecord } from '../../../protocol/guards';
import type { Dialect } from '../variables';
import { parseJsonDocument } from '../parse-document';
import { rootObject, serverMap } from '../server-map';
import type { ConvertContext, ConvertResult } from '../types';

/**
 * Zed, `settings.json` (JSON with comments): `context_servers`. A custom server is written
 * `{"command": "npx", "args": [...], "env": {...}}` (with or without `"source": "custom"`), or,
 * in older settings, `{"command": {"path": "npx", "args": [...], "env": {...}}}`. A server an
 * extension provides has only `settings` (or `"source": "extension"`): the extension decides
 * what runs, so there is nothing to convert. `{"url": ..., "headers": {...}}` is a remote
 * server; Zed names no transport, so none is written (the host tries Streamable HTTP, then SSE).
 * Zed expands no variables.
 */
export const ZED: Dialect = { label: 'Zed', launchVariables: 'literal', predefined: [] };

const KNOWN_KEYS = [
  'command',
  'args',
  'env',
  'enabled',
  'source',
  'remote',
  'settings',
  'url',
  'headers',
];

export function convertZed(text: string, file: string, context: ConvertContext): ConvertResult {
  const root = rootObject(parseJsonDocument(text, file), file);
  const builder = new ResultBuilder(ZED);
  for (const [name, raw] of Object.entries(serverMap(root, 'context_servers', file) ?? {})) {
    builder.add(name, convertEntry(raw, context));
  }
  return builder.result();
}

function convertEntry(raw: unknown, context: ConvertContext): EntryOutcome {
  if (!isRecord(raw)) return { ok: false, reason: 'cannot convert: the entry is not an object' };
  const command = raw['command'];
  if (raw['url'] !== undefined) {
    if (command !== undefined) {
      return cannot('it sets both "command" and "url"; keep one in Zed and import again');
    }
    return convertRemote(
      raw,
      KNOWN_KEYS,
      {
        transport: 'auto',
        urlKey: 'url',
        url: raw['url'],
        headers: raw['headers'],
        local: { args: raw['args'], env: raw['env'] },
        disabled: raw['enabled'] === false,
      },
      ZED,
      context,
    );
  }
  const extension =
    raw['source'] === 'extension' || (command === undefined && raw['settings'] !== undefined);
  if (extension) {
    return {
      ok: false,
      reason:
        "cannot convert: a Zed extension provides this server and decides what it runs; add it with 'switchyard add' using the command from the server's own documentation",
    };
  }
  const notes = droppedKeyNotes(raw, KNOWN_KEYS);
  if (raw['remote'] === true) {
    notes.push('Zed runs it on the remote development machine; Switchyard will run it on this one');
  }
  // Older settings: the command is an object of its own.
  const launch = isRecord(command)
    ? { command: command['path'], args: command['args'], env: command['env'] }
    : { command, args: raw['args'], env: raw['env'] };
  return convertStdio({ ...launch, disabled: raw['enabled'] === false, notes }, ZED, context);
}
