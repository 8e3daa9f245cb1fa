/**
 * Who may talk to the worker. The manifest declares no `externally_connectable`, so web pages and
 * other extensions cannot open a port at all; this check is the second wall: a message is taken
 * only from this extension's own pages (side panel, popup, options), never from a content script
 * (which shares the extension id but runs in a web page) or from a frame of some other origin.
 */

/** The fields of `runtime.MessageSender` the check reads. */
export interface SenderInfo {
  readonly id?: string;
  readonly url?: string;
  readonly origin?: string;
}

/**
 * True when `sender` is a page of the extension `extensionId` whose origin is `extensionOrigin`
 * (`chrome-extension://<id>` or `moz-extension://<uuid>`, without a trailing slash).
 */
export function isOwnExtensionPage(
  sender: SenderInfo,
  extensionId: string,
  extensionOrigin: string,
): boolean {
  if (sender.id !== extensionId) return false;
  if (sender.url === undefined) return false;
  let url: URL;
  try {
    url = new URL(sender.url);
  } catch {
    return false;
  }
  // Not `url.origin`: the URL standard gives non-special schemes such as chrome-extension: an
  // opaque origin ("null") in some engines.
  if (`${url.protocol}//${url.host}` !== extensionOrigin || url.username || url.password) {
    return false;
  }
  // Chromium also reports the frame's origin; where it does, it must agree.
  return sender.origin === undefined || sender.origin === extensionOrigin;
}
