/**
 * `oauthClientMetadataUrl` in config.json as the host runs with it: read at start, replaced by
 * every reload (config-apply.ts), and read by whoever needs it at the moment it is needed (a
 * connection's OAuth provider, a sign-in), so an edit of config.json takes effect at the next
 * connection or sign-in without a restart of the host. One per host core.
 */
export interface ClientMetadataUrlSetting {
  get(): string | undefined;
  set(url: string | undefined): void;
}

export function clientMetadataUrlSetting(initial: string | undefined): ClientMetadataUrlSetting {
  let current = initial;
  return {
    get: () => current,
    set: (url) => {
      current = url;
    },
  };
}
