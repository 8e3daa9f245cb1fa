import { ServerEntrySchema } from '../config/schema';
import type { RemoteEndpoint, RemoteTransport } from '../shared/server-spec';
import { isRecord } from '../../protocol/guards';
import { cannot, droppedKeyNotes, schemaProblem, type EntryOutcome } from './convert-entry';
import { shownKey } from './text';
import type { ConvertContext, ImportedRemoteEntry } from './types';
import { predefinedValues, substitute, type Dialect } from './variables';

/**
 * The part of every converter that does not depend on the client, for a remote server: the entry
 * is made into what `switchyard add --url` writes (`type`, `url`, `headers`) and checked with the
 * schema config.json is loaded with (config/remote-entry.ts: https only unless on this machine,
 * no credentials in the url, header names and values), so an entry that would not load is never
 * written and the reason is the validator's own. `${...}` in the url or a header is handled the
 * way the client would: Switchyard expands environment references in header values (at connect
 * time) and nothing in the url.
 */

/** What a client's entry says about a remote server, as written (not yet checked). */
export interface RemoteFields {
  readonly transport: RemoteTransport;
  /** The key the client keeps the address under ("serverUrl"), for messages. */
  readonly urlKey: string;
  readonly url: unknown;
  readonly headers?: unknown;
  /** A pre-registered OAuth client, in config.json's (Claude Code's) shape. */
  readonly oauth?: unknown;
  /** Fields only a local server has, as the entry sets them: refused unless empty. */
  readonly local?: { readonly args?: unknown; readonly env?: unknown; readonly cwd?: unknown };
  readonly disabled?: boolean;
  /** Notes the client's converter already has. */
  readonly notes?: readonly string[];
}

/** How `switchyard add --url` writes each transport as `"type"` (none: Streamable HTTP, then
 * SSE, as the host tries them). */
export const WRITTEN_TYPE: { readonly [T in RemoteTransport]: 'http' | 'sse' | undefined } = {
  'streamable-http': 'http',
  sse: 'sse',
  auto: undefined,
};

/**
 * Converts one remote entry. `raw` is the entry as the client wrote it and `known` the keys the
 * client's converter reads: any other key that sets up sign-in or computes headers makes the
 * entry unconvertible (connecting without it would not be the server the user had); timeouts and
 * tool permissions are noted as not imported, as for a local server.
 */
export function convertRemote(
  raw: Readonly<Record<string, unknown>>,
  known: readonly string[],
  fields: RemoteFields,
  dialect: Dialect,
  context: ConvertContext,
): EntryOutcome {
  for (const key of Object.keys(raw)) {
    if (known.includes(key)) continue;
    const reason = unsupportedKeyReason(key, dialect.label);
    if (reason !== undefined) return cannot(reason);
  }

  const variables = predefinedValues(dialect, context);
  const expands = dialect.launchVariables === 'expands';
  let url = fields.url;
  if (typeof url === 'string' && expands) {
    const result = substitute(url, shownKey(fields.urlKey), 'url', variables, dialect);
    if (typeof result !== 'string') return cannot(result.problem);
    url = result;
  }

  let headers = fields.headers ?? {};
  if (isRecord(headers)) {
    const converted: [string, unknown][] = [];
    for (const [name, value] of Object.entries(headers)) {
      if (typeof value !== 'string' || !expands) {
        // Not a string: the schema says so below, with the header's name.
        converted.push([name, value]);
        continue;
      }
      const result = substitute(value, `header ${shownKey(name)}`, 'header', variables, dialect);
      if (typeof result !== 'string') return cannot(result.problem);
      converted.push([name, result]);
    }
    // fromEntries defines own properties, so a "__proto__" header reaches the schema's check.
    headers = Object.fromEntries(converted);
  }

  const type = WRITTEN_TYPE[fields.transport];
  const local = Object.entries(fields.local ?? {}).filter(
    ([, value]) => value !== undefined && value !== null,
  );
  const checked = ServerEntrySchema.safeParse({
    ...(type === undefined ? {} : { type }),
    url,
    headers,
    ...(fields.oauth === undefined || fields.oauth === null ? {} : { oauth: fields.oauth }),
    ...Object.fromEntries(local),
  });
  if (!checked.success) return cannot(schemaProblem(checked.error));
  const remote = checked.data.remote;
  if (remote === undefined) return cannot('the entry is not a remote server');
  const entry: ImportedRemoteEntry = {
    remote,
    ...(fields.disabled === true ? { disabled: true } : {}),
  };
  return {
    ok: true,
    entry,
    notes: [
      ...(fields.notes ?? []),
      ...oauthNotes(fields.oauth, remote),
      ...droppedKeyNotes(raw, known),
    ],
  };
}

/**
 * What the user still has to do for an imported OAuth client: its secret stays in the source
 * client's keychain (Claude Code never writes it to a file), and a fixed callback port is not
 * how Switchyard's CLI redirects.
 */
function oauthNotes(raw: unknown, remote: RemoteEndpoint): string[] {
  const client = remote.oauth;
  if (client === undefined) return [];
  const notes = [
    client.clientSecret === undefined
      ? 'its OAuth client is imported without a secret: if the app has one, add "clientSecret": "${NAME}" to its "oauth" and run \'switchyard secret set NAME\''
      : `its OAuth client secret is read from ${client.clientSecret}`,
  ];
  if (isRecord(raw) && raw['callbackPort'] !== undefined) {
    notes.push(
      '"callbackPort" is not imported: \'switchyard auth\' redirects to http://127.0.0.1/callback on a random port; register that, and https://<extension-id>.chromiumapp.org/ for the popup',
    );
  }
  return notes;
}

/**
 * Why a key of a remote entry cannot be carried over, or undefined when it can be left out: a
 * key that signs in (OAuth client settings) or computes headers has no equivalent in config.json,
 * and without it the server would see a different client.
 */
export function unsupportedKeyReason(key: string, label: string): string | undefined {
  const shown = shownKey(key);
  const instead = `if the server takes a token, add it with 'switchyard add <name> --url <url> --header "Authorization=Bearer \${TOKEN}"'`;
  if (/helper/i.test(key)) {
    return `it gets its headers by running a program (${shown}), which Switchyard does not do; ${instead}`;
  }
  if (/auth/i.test(key)) {
    return `${shown} sets up how ${label} signs in to the server, which Switchyard does not do; ${instead}`;
  }
  if (/token|credential|secret|password|cert|api_?key/i.test(key)) {
    return `${shown} is a credential setting Switchyard does not read; ${instead}`;
  }
  return undefined;
}
