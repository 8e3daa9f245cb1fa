import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
} from '@modelcontextprotocol/client';
import {
  OAuthClientInformationFullSchema,
  OAuthMetadataSchema,
  OAuthProtectedResourceMetadataSchema,
  OAuthTokensSchema,
  OpenIdProviderDiscoveryMetadataSchema,
} from '@modelcontextprotocol/core';
import { z } from 'zod';
import type { SecretStore } from '../secrets/secret-store';
import { oauthKey, type OAuthRecord } from './resource';

// What the host keeps for one server's sign-in, as JSON in the secret store. Each record names
// the canonical resource it belongs to; a record for another resource reads as absent (the
// server's URL changed: its old tokens are never sent to the new one). The store is ours, but a
// value is parsed as hostile anyway: a hand-edited or truncated entry reads as absent, never as
// a crash or a half-trusted token.

const StampedSchema = z.object({ issuer: z.string().optional() });

export const ClientRecordSchema = z.object({
  resource: z.string(),
  info: OAuthClientInformationFullSchema.partial({ redirect_uris: true }).and(StampedSchema),
});

export const TokensRecordSchema = z.object({
  resource: z.string(),
  /** When the tokens were saved (ms since the epoch): `expires_in` counts from then. */
  savedAt: z.number(),
  tokens: OAuthTokensSchema.and(StampedSchema),
});

export const VerifierRecordSchema = z.object({ resource: z.string(), verifier: z.string() });

export const DiscoveryRecordSchema = z.object({
  resource: z.string(),
  state: z.object({
    authorizationServerUrl: z.string(),
    resourceMetadataUrl: z.string().optional(),
    resourceMetadata: OAuthProtectedResourceMetadataSchema.optional(),
    authorizationServerMetadata: z
      .union([OAuthMetadataSchema, OpenIdProviderDiscoveryMetadataSchema])
      .optional(),
  }),
});

/** The `state` of the authorization request in flight, and the redirect URI it named. */
export const PendingRecordSchema = z.object({
  resource: z.string(),
  state: z.string(),
  redirectUri: z.string(),
  /** The scope the last authorization asked for, so a step-up keeps what was granted. */
  scope: z.string().optional(),
});

/** The authorization server a machine client's credentials were pinned to on first use. */
export const IssuerRecordSchema = z.object({ resource: z.string(), issuer: z.string() });

export type TokensRecord = z.infer<typeof TokensRecordSchema>;
export type ClientRecord = z.infer<typeof ClientRecordSchema>;
export type PendingRecord = z.infer<typeof PendingRecordSchema>;

const SCHEMAS = {
  client: ClientRecordSchema,
  tokens: TokensRecordSchema,
  verifier: VerifierRecordSchema,
  discovery: DiscoveryRecordSchema,
  pending: PendingRecordSchema,
  issuer: IssuerRecordSchema,
} as const;

type RecordOf<W extends OAuthRecord> = z.infer<(typeof SCHEMAS)[W]>;

/**
 * One server's records in a `SecretStore`, bound to its canonical resource. Reads are cached for
 * the life of the object (writes and removals go through it), so the transport asking for the
 * token before every request does not run the OS store's tool each time; a provider lives for
 * one connection, so a sign-in from the CLI is seen at the server's next start.
 */
export class OAuthRecords {
  private readonly cache = new Map<OAuthRecord, Promise<unknown>>();

  constructor(
    private readonly store: SecretStore,
    readonly server: string,
    readonly resource: string,
  ) {}

  /** The record, or undefined when absent, unparsable, or stored for another resource. */
  async read<W extends OAuthRecord>(what: W): Promise<RecordOf<W> | undefined> {
    let cached = this.cache.get(what) as Promise<RecordOf<W> | undefined> | undefined;
    if (cached === undefined) {
      cached = readUnbound(this.store, this.server, what);
      this.cache.set(what, cached);
      // A failed read (a locked keyring) is not remembered: the next request asks again.
      cached.catch(() => this.cache.delete(what));
    }
    const record = await cached;
    return record?.resource === this.resource ? record : undefined;
  }

  async write<W extends OAuthRecord>(what: W, record: RecordOf<W>): Promise<void> {
    this.cache.delete(what);
    await this.store.set(oauthKey(this.server, what), JSON.stringify(record));
    this.cache.set(what, Promise.resolve(record));
  }

  async remove(what: OAuthRecord): Promise<void> {
    this.cache.delete(what);
    await this.store.delete(oauthKey(this.server, what));
    this.cache.set(what, Promise.resolve(undefined));
  }
}

/**
 * A record whatever resource it is bound to: for status and sign-out, which must also reach a
 * server whose URL changed or whose entry is gone. Never used to send a token.
 */
export async function readUnbound<W extends OAuthRecord>(
  store: SecretStore,
  server: string,
  what: W,
): Promise<RecordOf<W> | undefined> {
  const raw = await store.get(oauthKey(server, what));
  if (raw === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const parsed = SCHEMAS[what].safeParse(json);
  return parsed.success ? (parsed.data as RecordOf<W>) : undefined;
}

export type { OAuthDiscoveryState, StoredOAuthClientInformation };
