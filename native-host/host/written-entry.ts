import { isRecord } from '../../protocol/guards';
import { LAUNCH_FIELDS } from '../config/workspace';
import { copyIdp } from '../shared/remote-endpoint';
import type { PreRegisteredClient } from '../shared/server-spec';

/**
 * A server as the user gave it (the popup's form, `switchyard add`, an import) and the launch
 * fields config.json gets for it: one spelling for every writer, so what Switchyard approves is
 * what a load of the file produces.
 */

/** A server as the user gave it: the popup's form, or `switchyard add`'s arguments. A local
 * server has a `command`; a remote one a `url` (and maybe `transport` and `headers`). */
export type NewUserServer = NewLocalServer | NewRemoteServer;

export interface NewLocalServer {
  readonly name: string;
  readonly command: string;
  readonly args?: readonly string[] | undefined;
  readonly env?: Readonly<Record<string, string>> | undefined;
  readonly cwd?: string | undefined;
}

export interface NewRemoteServer {
  readonly name: string;
  readonly url: string;
  /** Written as `"type"`; omitted, the host tries Streamable HTTP, then the legacy SSE. */
  readonly transport?: 'http' | 'sse' | undefined;
  /** Values as the user wrote them: `${VAR}` is expanded when connecting. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** A pre-registered OAuth client (an import); omitted, an existing entry's `oauth` is kept. */
  readonly oauth?: PreRegisteredClient | undefined;
}

/** The launch fields as written under `mcpServers.<name>`: a command, or a url. */
export type WrittenEntry =
  | {
      readonly command: string;
      readonly args?: string[];
      readonly env?: Record<string, string>;
      readonly cwd?: string;
    }
  | {
      readonly type?: 'http' | 'sse';
      readonly url: string;
      readonly headers?: Record<string, string>;
      readonly oauth?: Record<string, unknown>;
    };

/** The launch fields `server` is written as: what `switchyard add`, the popup and import write. */
export function writtenEntry(server: NewUserServer): WrittenEntry {
  if ('url' in server) {
    return {
      ...(server.transport === undefined ? {} : { type: server.transport }),
      url: server.url,
      ...(server.headers === undefined || Object.keys(server.headers).length === 0
        ? {}
        : { headers: { ...server.headers } }),
      ...(server.oauth === undefined ? {} : { oauth: oauthEntry(server.oauth) }),
    };
  }
  return {
    command: server.command,
    ...(server.args === undefined || server.args.length === 0 ? {} : { args: [...server.args] }),
    ...(server.env === undefined || Object.keys(server.env).length === 0
      ? {}
      : { env: { ...server.env } }),
    ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
  };
}

/** A pre-registered client as config.json spells it (no empty `scopes`). */
function oauthEntry(client: PreRegisteredClient): Record<string, unknown> {
  return {
    clientId: client.clientId,
    ...(client.clientSecret === undefined ? {} : { clientSecret: client.clientSecret }),
    ...(client.scopes.length === 0 ? {} : { scopes: [...client.scopes] }),
    ...(client.grant === undefined ? {} : { grant: client.grant }),
    ...(client.privateKey === undefined ? {} : { privateKey: client.privateKey }),
    ...(client.algorithm === undefined ? {} : { algorithm: client.algorithm }),
    ...(client.issuer === undefined ? {} : { issuer: client.issuer }),
    ...(client.idp === undefined ? {} : { idp: copyIdp(client.idp) }),
  };
}

/** The keys of an entry that say what runs or what is contacted, as a file spells them. */
const WRITTEN_LAUNCH_KEYS: ReadonlySet<string> = new Set([
  ...LAUNCH_FIELDS.filter((field) => field !== 'remote'),
  'type',
  'transportType',
  'url',
  'serverUrl',
  'httpUrl',
  'headers',
]);

/** An existing entry without its launch fields: what `replace` keeps (prefix, timeouts, ...).
 * Replacing a local server with a remote one (or back) leaves nothing of the old kind behind. */
export function launchlessCopy(entry: unknown): Record<string, unknown> {
  if (!isRecord(entry)) return {};
  return Object.fromEntries(Object.entries(entry).filter(([key]) => !WRITTEN_LAUNCH_KEYS.has(key)));
}
