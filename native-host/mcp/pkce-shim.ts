import type upstream from 'pkce-challenge';

/**
 * What the bundle gives the v2 client for `pkce-challenge` (redirected in scripts/build-host.mjs
 * for the client's imports only). The upstream module reads `globalThis.crypto` at its top level,
 * which made Node load its Web Crypto on every host start, for a challenge only an OAuth sign-in
 * computes (decision 0030). Here the module is evaluated on the first sign-in.
 */
export default async function pkceChallenge(
  ...args: Parameters<typeof upstream>
): ReturnType<typeof upstream> {
  const { default: challenge } = await import('pkce-challenge');
  return challenge(...args);
}
