/**
 * Who carries the user through an authorization page. The host owns the flow and the tokens
 * (decision 0018); a user agent only shows the page and brings back the URL the authorization
 * server redirected to. Two exist: the CLI's loopback receiver (`loopback-receiver.ts`, RFC 8252)
 * and the browser relay (`browser-user-agent.ts`: the extension's `identity.launchWebAuthFlow`).
 */
export interface UserAgent {
  /** The redirect URI callbacks arrive on; the client registration must name it. */
  readonly redirectUri: string;
  /**
   * Shows `authorizationUrl` to the user and resolves with the full callback URL (under
   * `redirectUri`, carrying `code`/`state`/`iss` or `error`). Rejects on timeout or cancel. What
   * it resolves with is untrusted: the provider checks the URL, the `state` and the `iss`.
   */
  authorize(authorizationUrl: URL, redirectUri: string): Promise<string>;
}
