import { formatCommandLine } from '../../../protocol/argv';
import { describeExit, type ServerState, type ServerSummary } from '../../../protocol/servers';
import { assertNever } from '../../../protocol/guards';
import { originOf } from '../../../protocol/remote-url';
import { TRANSPORT_TEXT } from '../common/remote-transport';

/**
 * The popup's view of one configured server (issues 5 and 11): what its state means for the user,
 * where its launch definition comes from, the literal command line or the remote address, and
 * which actions make sense now.
 * Pure: the rows are derived from the same `servers/list` data the agent uses, so the popup can
 * never show a server as usable while the host refuses it.
 */

/** How a state should look: drives the colour of the state badge, never the wording. */
export type StateTone = 'ok' | 'busy' | 'idle' | 'attention' | 'error';

export interface StateView {
  /** One short label for the badge: "running", "command changed - needs approval", … */
  readonly label: string;
  /** A longer sentence under the row, when there is more to say (exit reason, host message). */
  readonly detail: string | null;
  readonly tone: StateTone;
}

export type ServerAction =
  'start' | 'stop' | 'restart' | 'approve' | 'revoke' | 'forget' | 'remove';

/** What a server runs or contacts: a local command, or a remote server's address. */
export type LaunchView =
  | {
      readonly kind: 'local';
      /** The command as configured, as one line that splits back into the same argv. */
      readonly commandLine: string;
      /** The absolute program the host resolved; null when the host could not find it. */
      readonly resolvedCommand: string | null;
      readonly envKeys: readonly string[];
      readonly cwd: string | null;
    }
  | {
      readonly kind: 'remote';
      readonly url: string;
      /** Where data and tokens go: what the row shows in place of a command line. */
      readonly origin: string;
      /** The transport in words. */
      readonly transport: string;
      /** The headers the host sends, by name (the host never reports their values). */
      readonly headerNames: readonly string[];
      /** The pre-registered OAuth client that signs in (the entry's `oauth`), if any. */
      readonly oauthClientId?: string;
    };

export interface ServerRowView {
  readonly name: string;
  readonly state: StateView;
  /** "user", "workspace: /path", or "edited outside Switchyard". */
  readonly provenance: string;
  /** Waiting for approval because the user revoked it in this popup (see isRevokedHere). */
  readonly revokedHere: boolean;
  readonly launch: LaunchView;
  /** "handshake 537 ms" while running; null otherwise. */
  readonly handshake: string | null;
  readonly toolCount: number;
  readonly tokens: number;
  readonly disabled: boolean;
  /** The actions offered for this state, in button order. */
  readonly actions: readonly ServerAction[];
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** The badge and detail line for a server's state. */
export function describeState(status: ServerState): StateView {
  switch (status.state) {
    case 'running':
      return { label: 'running', detail: null, tone: 'ok' };
    case 'starting':
      return {
        label: 'starting',
        detail: status.attempt > 1 ? `Attempt ${status.attempt}.` : null,
        tone: 'busy',
      };
    case 'stopped':
      return { label: 'stopped', detail: null, tone: 'idle' };
    case 'needs-approval':
      return {
        label:
          status.consent.reason === 'changed'
            ? 'command changed - needs approval'
            : 'needs approval',
        detail: status.consent.summary,
        tone: 'attention',
      };
    case 'crashed': {
      const restart = status.retryInMs > 0 ? ` Restarting in ${seconds(status.retryInMs)} s.` : '';
      const restarts = status.restarts > 0 ? ` Restarted ${status.restarts}×.` : '';
      return {
        label: `crashed (${describeExit(status.exit)})`,
        detail: `The server exited with ${describeExit(status.exit)}.${restarts}${restart}`,
        tone: 'error',
      };
    }
    case 'failed':
      return {
        label: failureLabel(status),
        // The host's sentence names the CLI and "the popup's Sign in"; in the popup the row's
        // sign-in panel says it once, beside its button (SignInPanel).
        detail: status.reason === 'auth-required' ? null : status.message,
        tone: 'error',
      };
    default:
      return assertNever(status, 'server state');
  }
}

function failureLabel(status: Extract<ServerState, { state: 'failed' }>): string {
  switch (status.reason) {
    case 'command-not-found':
      return 'failed: not found on PATH';
    case 'spawn-failed':
      return 'failed: could not start';
    case 'missing-variable':
      return 'failed: a variable is not set';
    case 'auth-required':
      return 'needs sign-in';
    case 'handshake-timeout':
      return 'failed: handshake timed out';
    case 'handshake-failed':
      return 'failed: handshake failed';
    case 'crash-loop':
      return status.exit === undefined
        ? 'failed: keeps crashing'
        : `failed: keeps crashing (${describeExit(status.exit)})`;
    default:
      return assertNever(status.reason, 'server state');
  }
}

/**
 * Whether `server` waits at the launch gate because the user revoked it in this popup: the host
 * reports a revoked user-tier server as `edited-outside` (docs/protocol.md, known limitations),
 * so the popup remembers the fingerprint its own revoke left waiting. A later change to the
 * launch has another fingerprint and reads as edited outside again.
 */
export function isRevokedHere(server: ServerSummary, revokedFingerprint: string | null): boolean {
  const status = server.status;
  return (
    revokedFingerprint !== null &&
    status.state === 'needs-approval' &&
    status.consent.reason === 'edited-outside' &&
    status.consent.fingerprint === revokedFingerprint
  );
}

/**
 * Where the launch definition comes from, as the row shows it. `revokedFingerprint`: what this
 * popup's own revoke left waiting (see isRevokedHere), which is the user's entry, not an edit.
 */
export function describeProvenance(
  server: ServerSummary,
  revokedFingerprint: string | null = null,
): string {
  if (
    server.status.state === 'needs-approval' &&
    server.status.consent.reason === 'edited-outside' &&
    !isRevokedHere(server, revokedFingerprint)
  )
    return 'edited outside Switchyard';
  if (server.provenance === 'workspace')
    return server.workspaceRoot === null ? 'workspace' : `workspace: ${server.workspaceRoot}`;
  return 'user';
}

/**
 * Actions in button order. A server waiting at the launch gate offers Approve (and, when an older
 * approval no longer matches, Forget for it) but never Start: only the consent card starts it.
 * Revoke is offered on every other server; it is how a user makes a server ask again. Remove is
 * offered for the user's own entries only.
 */
export function actionsFor(server: ServerSummary): ServerAction[] {
  const status = server.status;
  const lifecycle = ((): ServerAction[] => {
    switch (status.state) {
      case 'running':
        return ['stop', 'restart'];
      case 'starting':
        return ['stop'];
      case 'stopped':
        return ['start'];
      case 'crashed':
        return ['stop', 'restart'];
      case 'failed':
        // Starting again cannot get past a sign-in: the row's Sign in is the way on.
        return status.reason === 'auth-required' ? [] : ['start'];
      case 'needs-approval':
        return status.consent.reason === 'changed' ? ['approve', 'forget'] : ['approve'];
      default:
        return assertNever(status, 'server state');
    }
  })();
  const trust: ServerAction[] = status.state === 'needs-approval' ? [] : ['revoke'];
  // A workspace server lives in the repository's file: the host refuses to remove it from there.
  const remove: ServerAction[] = server.provenance === 'user' ? ['remove'] : [];
  return [...lifecycle, ...trust, ...remove];
}

/** What each action's button shows: short, because the row already names the server. */
export const ACTION_LABELS: Readonly<Record<Exclude<ServerAction, 'approve'>, string>> = {
  start: 'Start',
  stop: 'Stop',
  restart: 'Restart',
  revoke: 'Revoke',
  forget: 'Forget approval',
  remove: 'Remove',
};

/**
 * The accessible name of a button in `server`'s row (issue 14): its visible label, then the server
 * it acts on ("Stop filesystem", "Logs of filesystem"), so a screen reader does not hear "Stop"
 * once per row. The visible label comes first and whole (WCAG 2.5.3, label in name), so a speech
 * user can say what they see.
 */
export function withServer(label: string, server: string, preposition?: 'of' | 'to'): string {
  return preposition === undefined ? `${label} ${server}` : `${label} ${preposition} ${server}`;
}

/** The accessible name of an action's button in `server`'s row. */
export function actionButtonName(action: Exclude<ServerAction, 'approve'>, server: string): string {
  return withServer(ACTION_LABELS[action], server, action === 'forget' ? 'of' : undefined);
}

/** The row's "MCP Apps" switch (issue 12 part 4). */
export interface AppsSwitchView {
  /** On or off as shown: what the user asked for while that is on its way, else the host's. */
  readonly checked: boolean;
  /** The user's change is on its way (the host writes config.json, maybe reconnects). */
  readonly busy: boolean;
  /** Its accessible name: "MCP Apps for filesystem". */
  readonly name: string;
  /** One line on what the switch does now. */
  readonly hint: string;
}

/**
 * The switch for `server`'s MCP Apps. `wanted` is the value the user switched to, until the host
 * reports it (null when there is none), and `sending` whether that request is still on its way:
 * the switch neither jumps back while the host writes and reconnects, nor hides the host's value
 * once it has answered.
 */
export function appsSwitch(
  server: ServerSummary,
  wanted: boolean | null,
  sending = false,
): AppsSwitchView {
  const busy = sending || (wanted !== null && wanted !== server.apps);
  const checked = busy && wanted !== null ? wanted : server.apps;
  return {
    checked,
    busy,
    name: `MCP Apps for ${server.name}`,
    hint: checked
      ? 'Pages its tools offer show in the chat, sandboxed.'
      : 'Off: its tools answer in text; no pages are shown.',
  };
}

/** A remote server's address, or the local command line (a remote summary's command is empty). */
export function launchView(server: ServerSummary): LaunchView {
  const remote = server.remote;
  if (remote !== null) {
    return {
      kind: 'remote',
      url: remote.url,
      origin: originOf(remote.url),
      transport: TRANSPORT_TEXT[remote.transport],
      headerNames: remote.headerNames,
      ...(remote.oauthClientId === undefined ? {} : { oauthClientId: remote.oauthClientId }),
    };
  }
  return {
    kind: 'local',
    commandLine: formatCommandLine([server.command, ...server.args]),
    resolvedCommand: server.resolvedCommand,
    envKeys: server.envKeys,
    cwd: server.cwd,
  };
}

/**
 * Derives one row from the host's summary; `revokedFingerprint` is what this popup's own revoke
 * left waiting, if anything (see isRevokedHere).
 */
export function serverRow(
  server: ServerSummary,
  revokedFingerprint: string | null = null,
): ServerRowView {
  return {
    name: server.name,
    state: describeState(server.status),
    provenance: describeProvenance(server, revokedFingerprint),
    revokedHere: isRevokedHere(server, revokedFingerprint),
    launch: launchView(server),
    handshake:
      server.status.state === 'running'
        ? `handshake ${Math.round(server.status.handshakeMs)} ms`
        : null,
    toolCount: server.toolCount,
    tokens: server.tokens,
    disabled: server.disabled,
    actions: actionsFor(server),
  };
}

/** Servers that want the user first, then live ones, then idle ones; by name within a group. */
function rank(status: ServerState): number {
  switch (status.state) {
    case 'needs-approval':
    case 'failed':
    case 'crashed':
      return 0;
    case 'running':
    case 'starting':
      return 1;
    case 'stopped':
      return 2;
    default:
      return assertNever(status, 'server state');
  }
}

/** The servers in list order (see `rank`). Does not mutate `servers`. */
export function sortServers(servers: readonly ServerSummary[]): ServerSummary[] {
  return [...servers].sort(
    (a, b) =>
      rank(a.status) - rank(b.status) ||
      a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
}

/** All rows, in list order. */
export function serverRows(servers: readonly ServerSummary[]): ServerRowView[] {
  return sortServers(servers).map((server) => serverRow(server));
}

/** "1,133 tokens" with the user's grouping. */
export function formatTokens(tokens: number): string {
  return `${tokens.toLocaleString('en-US')} ${tokens === 1 ? 'token' : 'tokens'}`;
}

/** "13 tools" / "1 tool". */
export function formatToolCount(count: number): string {
  return `${count} ${count === 1 ? 'tool' : 'tools'}`;
}
