/**
 * Identities shared by the extension build, the host and the installer. A test derives
 * DEV_EXTENSION_ID from DEV_EXTENSION_KEY, so the two cannot drift apart.
 */

/** Native-messaging host name: lowercase, dots and underscores only (Chrome's rule). */
export const HOST_NAME = 'com.switchyard.host';

/**
 * Public key pinned into development builds' manifest `key`, so an unpacked build has the same
 * extension id on every machine. Only the public half exists; nothing is signed with it.
 */
export const DEV_EXTENSION_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAtKPSWjZGNNEU0TfkVkFbma/l120PrEAX1HGmqiyO8+tRmmzlgj/LdNmllugszAGTdZqJSRNRtU7BvOjd7EMSoPTBG4lzStP0FK40tRQWwG9llO4j0BnbXIxAMdf740u2uwWKYOYGW7tOgQ2MY8dF7HSSOXQFgI2keP3TWntgYeZWI7U7gK6G9gHxySvmgKy3yi6c0OPFsf8X8W0Agl03vlV+SKPEBAUNkiFUcT/0iwj2x15AkvmG1v0Ohgt9bhEV9xylka5bEHMTNIEDDCIZIOoOnLhaznB9ZPQUo98xlX8ZpJc/SlvsrnvHQS/yuzSt1AMwUe/XDx3KMvziKUzY/wIDAQAB';

/** Chromium extension id derived from DEV_EXTENSION_KEY (SHA-256 of the DER, first 32 hex as a-p). */
export const DEV_EXTENSION_ID = 'ddbjoamfefamboaogaeefgfijojophel';

/** Firefox (gecko) extension id, used in Firefox's `allowed_extensions`. */
export const GECKO_ID = 'switchyard@switchyard.dev';

/** Chromium-family origin the browser passes to the host as its first argument. */
export function chromiumOrigin(extensionId: string): string {
  return `chrome-extension://${extensionId}/`;
}
