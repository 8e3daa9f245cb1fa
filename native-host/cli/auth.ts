import { spawn } from 'node:child_process';
import { describeAuthError } from '../auth/auth-errors';
import { startLoopbackUserAgent } from '../auth/loopback-receiver';
import { SwitchyardOAuthProvider } from '../auth/oauth-provider';
import { resolveClient } from '../auth/pre-registered-client';
import type { PreRegisteredClient } from '../shared/server-spec';
import { canonicalResource } from '../auth/resource';
import { signIn } from '../auth/sign-in';
import { listSignIns, type SignInStatus } from '../auth/sign-in-status';
import { signOut, type SignOutResult } from '../auth/sign-out';
import { machineNeedsNoSignIn } from '../auth/machine-client';
import type { SecretStore } from '../secrets/secret-store';
import { table, type CliIo } from './io';

export type AuthArgs =
  | { readonly ok: true; readonly mode: 'sign-in'; readonly server: string; readonly open: boolean }
  | { readonly ok: true; readonly mode: 'sign-out'; readonly server: string }
  | { readonly ok: true; readonly mode: 'status'; readonly json: boolean }
  | { readonly ok: false; readonly error: string };

const USAGE =
  'usage: switchyard auth <name> [--no-open] | switchyard auth <name> --sign-out | switchyard auth --status [--json]';

/** `auth` arguments, parsed without I/O. */
export function parseAuthArgs(argv: readonly string[]): AuthArgs {
  let server: string | undefined;
  let open = true;
  let signOutFlag = false;
  let status = false;
  let json = false;
  for (const arg of argv) {
    if (arg === '--no-open') open = false;
    else if (arg === '--sign-out') signOutFlag = true;
    else if (arg === '--status') status = true;
    else if (arg === '--json') json = true;
    else if (arg.startsWith('-') || server !== undefined) {
      return { ok: false, error: `unknown argument '${arg.slice(0, 100)}'` };
    } else server = arg;
  }
  if (status) {
    if (server !== undefined || signOutFlag || !open) {
      return { ok: false, error: '--status takes no server name and no other flag but --json' };
    }
    return { ok: true, mode: 'status', json };
  }
  if (json) return { ok: false, error: '--json goes with --status' };
  if (server === undefined)
    return { ok: false, error: 'name the server, e.g. switchyard auth github' };
  if (signOutFlag) {
    if (!open) return { ok: false, error: '--no-open goes with signing in, not --sign-out' };
    return { ok: true, mode: 'sign-out', server };
  }
  return { ok: true, mode: 'sign-in', server, open };
}

/** What `auth` needs from the rest of the host; `main.ts` passes the real ones. */
export interface AuthDeps {
  readonly store: () => Promise<SecretStore>;
  /** The `url` of a remote server's entry, or a message saying why there is none. */
  readonly serverUrl: (
    name: string,
  ) => Promise<
    { url: string; oauth?: PreRegisteredClient; clientMetadataUrl?: string } | { error: string }
  >;
  /** Opens a URL in the user's browser; false when it could not (the URL is printed anyway). */
  readonly openUrl?: (url: string) => boolean;
  readonly now?: () => number;
}

/**
 * `switchyard auth <name>`: signs in to a remote server through a loopback redirect on
 * 127.0.0.1, printing the URL to open (and opening it unless `--no-open`); `--sign-out`
 * revokes and deletes the server's tokens; `--status` lists who is signed in where, with
 * scopes and expiry, never a token.
 */
export async function authCommand(
  io: CliIo,
  argv: readonly string[],
  deps: AuthDeps,
): Promise<number> {
  const args = parseAuthArgs(argv);
  if (!args.ok) {
    io.err(`switchyard auth: ${args.error}\n${USAGE}\n`);
    return 2;
  }
  let store: SecretStore;
  try {
    store = await deps.store();
  } catch (error) {
    io.err(`switchyard auth: cannot open the secret store: ${errorText(error)}\n`);
    return 1;
  }
  switch (args.mode) {
    case 'status': {
      const signIns = await listSignIns(store);
      if (args.json) io.out(`${JSON.stringify(signIns, null, 2)}\n`);
      else io.out(statusText(signIns, deps.now?.() ?? Date.now()));
      return 0;
    }
    case 'sign-out': {
      const result = await signOut(store, args.server);
      io.out(
        result.deleted === 0
          ? `'${args.server}' was not signed in.\n`
          : `${signedOutText(args.server, result)}\n`,
      );
      return 0;
    }
    case 'sign-in':
      return signInCommand(io, args.server, args.open, store, deps);
  }
}

/** What a sign-out that deleted tokens did, as one sentence. */
export function signedOutText(server: string, result: SignOutResult): string {
  if (result.revocation === 'nothing') {
    return `Forgot the sign-in records of '${server}' (there were no tokens to revoke).`;
  }
  const revocation = {
    revoked: 'revoked at its authorization server',
    unsupported:
      'its authorization server offers no revocation, so the tokens stay valid there until they expire',
    'not-sent':
      'they were issued for the URL the server had before, so they were not sent to the authorization server of its URL now; they stay valid there until they expire',
    failed: 'its authorization server did not confirm the revocation',
  }[result.revocation];
  return `Signed out of '${server}': deleted its tokens; ${revocation}.`;
}

async function signInCommand(
  io: CliIo,
  server: string,
  open: boolean,
  store: SecretStore,
  deps: AuthDeps,
): Promise<number> {
  const entry = await deps.serverUrl(server);
  if ('error' in entry) {
    io.err(`switchyard auth: ${entry.error}\n`);
    return 1;
  }
  const resource = canonicalResource(entry.url);
  if (resource === undefined) {
    io.err(
      `switchyard auth: '${server}' has url ${JSON.stringify(entry.url.slice(0, 200))}, which is not an https URL (or http on this machine); Switchyard sends tokens only there.\n`,
    );
    return 1;
  }
  if (entry.oauth?.grant !== undefined) {
    io.err(`switchyard auth: ${machineNeedsNoSignIn(server, entry.oauth.grant)}\n`);
    return 1;
  }
  const agent = await startLoopbackUserAgent({
    show: (url) => {
      io.err(`Open this URL in your browser to sign in to '${server}':\n\n  ${url.href}\n\n`);
      if (open && deps.openUrl?.(url.href) === true) io.err('(opened in your browser)\n');
      io.err('Waiting for the browser... (Ctrl-C to give up)\n');
    },
  });
  try {
    let preRegistered;
    if (entry.oauth !== undefined) {
      const resolved = await resolveClient(server, entry.oauth, {
        env: io.env,
        platform: io.platform,
        store: () => Promise.resolve(store),
      });
      if (!resolved.ok) {
        io.err(`switchyard auth: ${resolved.message}\n`);
        return 1;
      }
      preRegistered = resolved.client;
    }
    const provider = new SwitchyardOAuthProvider({
      server,
      serverUrl: entry.url,
      resource,
      store,
      userAgent: agent,
      ...(preRegistered === undefined ? {} : { preRegistered }),
      ...(entry.clientMetadataUrl === undefined
        ? {}
        : { clientMetadataUrl: entry.clientMetadataUrl }),
    });
    const status = await signIn(provider, entry.url);
    io.out(
      `Signed in to '${server}'${status.subject === undefined ? '' : ` as ${status.subject}`} (${status.scopes.join(' ') || 'no scope named'}).\n`,
    );
    return 0;
  } catch (error) {
    io.err(`switchyard auth: ${describeAuthError(error, server).message}\n`);
    return 1;
  } finally {
    await agent.close();
  }
}

function statusText(signIns: readonly SignInStatus[], now: number): string {
  if (signIns.length === 0) return 'No server is signed in.\n';
  const rows = signIns.map((s) => [
    s.server,
    s.subject ?? '-',
    s.scopes.join(' ') || '-',
    s.expiresAt === undefined
      ? 'no expiry given'
      : s.expiresAt <= now
        ? `expired${s.refreshable ? ' (refreshes on use)' : ''}`
        : `expires in ${Math.round((s.expiresAt - now) / 60_000)} min${s.refreshable ? ', refreshable' : ''}`,
  ]);
  return `${table([['server', 'signed in as', 'scopes', 'token'], ...rows])}\n`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Opens an http(s) URL with the platform's opener, without a shell and with the URL as one
 * argument; false when the URL is not http(s) or nothing could be started.
 */
export function openInBrowser(url: string, platform: NodeJS.Platform = process.platform): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  const [command, args] =
    platform === 'darwin'
      ? ['open', [parsed.href]]
      : platform === 'win32'
        ? ['rundll32', ['url.dll,FileProtocolHandler', parsed.href]]
        : ['xdg-open', [parsed.href]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true, shell: false });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
