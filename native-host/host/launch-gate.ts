import path from 'node:path';
import { originOf } from '../../protocol/remote-url';
import type { ConsentReason, ConsentRequest, LaunchChange } from '../../protocol/servers';
import { describeLaunchChanges, grantText, launchFingerprint } from '../trust/fingerprint';
import { type LaunchDefinition } from '../shared/server-spec';
import { sanitizeText } from '../../protocol/untrusted/sanitize';

/**
 * The launch consent card (design D6), built from exactly the definition the host would spawn.
 * Pure. Everything on it is shown literally: the resolved program, each argument, each env value
 * as written in the file (`${VAR}` unexpanded, so a secret from the user's environment is never
 * shown), and what changed since a previous approval.
 */

/** Variables that change what an interpreter loads: code execution without touching the command. */
const CODE_LOADING_ENV =
  /^(NODE_OPTIONS|NODE_PATH|LD_PRELOAD|LD_LIBRARY_PATH|DYLD_[A-Z_]+|PYTHONPATH|PYTHONSTARTUP|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|BASH_ENV|ENV)$/i;

/** Whether setting the env variable `key` changes what the program loads and runs. */
export function loadsCode(key: string): boolean {
  return CODE_LOADING_ENV.test(key);
}

export interface ConsentInput {
  readonly server: string;
  readonly command: string;
  readonly definition: LaunchDefinition;
  readonly sourceFile: string | null;
  readonly ignoredTrustClaims: readonly string[];
  /** The previous approval's differences, when there was one. */
  readonly changes: readonly LaunchChange[] | null;
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Plain-language warnings for the card. */
export function launchWarnings(input: ConsentInput): string[] {
  const { definition } = input;
  const warnings: string[] = [];
  const root = definition.workspaceRoot;
  const remote = definition.remote;
  if (remote !== undefined) {
    const origin = originOf(remote.url);
    warnings.push(
      root === null
        ? `Connects to ${origin}: the arguments of every tool you allow are sent there.`
        : `This repository asks Switchyard to connect to ${origin}: the arguments of every tool you allow, and any token in its headers, would be sent there. Approve only if you know the server.`,
    );
    if (new URL(remote.url).protocol === 'http:') {
      warnings.push('Plain http: allowed only because the server is on this machine.');
    }
    const secret = remote.oauth?.clientSecret;
    if (root !== null && secret !== undefined) {
      // The repository chose the variable: its value, whatever it holds, goes to the server's
      // authorization server as the client secret.
      warnings.push(
        `Signs in with the value of ${secret} from this machine as its OAuth client secret: approve only if that variable holds this app's secret.`,
      );
    }
    const idp = remote.oauth?.idp;
    if (root !== null && idp !== undefined) {
      // Cross-app access (decision 0032): the user's ID token spends as the user at their IdP.
      warnings.push(
        `Sends your ID token from ${idp.idToken} to the identity provider ${JSON.stringify(idp.issuer)} for a grant to reach this server as you: approve only if that is your company's IdP.`,
      );
    }
  } else if (root !== null) {
    const base = definition.cwd ?? root;
    const pointsInside = (value: string): boolean => {
      if (path.isAbsolute(value)) return isInside(root, value);
      return /[\\/]/.test(value) && isInside(root, path.resolve(base, value));
    };
    if (isInside(root, definition.executable) || definition.args.some(pointsInside)) {
      warnings.push(
        'Runs code from this folder, which can change without asking again: approve only if you trust the repository.',
      );
    }
  }
  for (const key of Object.keys(definition.env)) {
    if (loadsCode(key)) {
      warnings.push(`Sets ${key}, which changes what the program loads and runs.`);
    }
  }
  if (input.ignoredTrustClaims.length > 0) {
    warnings.push(
      `The file claims trust (${input.ignoredTrustClaims.join(', ')}); Switchyard ignores such claims.`,
    );
  }
  return warnings;
}

/** C0 and C1 controls (but tab and newline) and DEL, as they would reach the program. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Literal, but visible: a control character (an ESC that would hide text in a terminal, a
 * carriage return) becomes a marker like ⟦U+001B⟧ rather than being dropped, because the program
 * receives it; the sanitizer then marks bidi and invisible characters the same way.
 */
export function shown(text: string): string {
  return sanitizeText(
    text.replace(
      CONTROL,
      (c) => `⟦U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟧`,
    ),
  );
}

function shownChange(change: LaunchChange): LaunchChange {
  return 'key' in change
    ? {
        field: change.field,
        key: shown(change.key),
        before: change.before === null ? null : shown(change.before),
        after: change.after === null ? null : shown(change.after),
      }
    : { field: change.field, before: shown(change.before), after: shown(change.after) };
}

export function consentRequest(input: ConsentInput): ConsentRequest {
  const { definition } = input;
  const changes = input.changes ?? [];
  const reason: ConsentReason =
    input.changes !== null
      ? 'changed'
      : definition.provenance === 'workspace'
        ? 'workspace'
        : 'edited-outside';
  const summary =
    reason === 'changed'
      ? describeLaunchChanges(changes, definition.remote === undefined ? 'local' : 'remote')
      : reason === 'workspace'
        ? `new server from ${definition.workspaceRoot ?? 'a workspace'} - needs approval`
        : 'in config.json but not approved to run - needs approval';
  return {
    server: input.server,
    reason,
    fingerprint: launchFingerprint(definition),
    // Shown literally, but an invisible or bidi character becomes a visible marker (⟦U+202E⟧):
    // a card that hides part of an argument is not literal.
    executable: shown(definition.executable),
    command: shown(definition.remote?.url ?? input.command),
    args: definition.args.map(shown),
    env: Object.entries(definition.env)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]): [string, string] => [shown(k), shown(v)]),
    cwd: definition.cwd === null ? null : shown(definition.cwd),
    provenance: definition.provenance,
    workspaceRoot: definition.workspaceRoot,
    toolPrefix: definition.toolPrefix === undefined ? null : shown(definition.toolPrefix),
    sourceFile: input.sourceFile,
    changes: changes.map(shownChange),
    summary: sanitizeText(summary),
    warnings: launchWarnings(input),
    ignoredTrustClaims: [...input.ignoredTrustClaims],
    remote:
      definition.remote === undefined
        ? null
        : {
            url: shown(definition.remote.url),
            origin: shown(originOf(definition.remote.url)),
            transport: definition.remote.transport,
            headers: Object.entries(definition.remote.headers)
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([k, v]): [string, string] => [shown(k), shown(v)]),
            ...(definition.remote.oauth === undefined
              ? {}
              : {
                  oauthClient: {
                    clientId: shown(definition.remote.oauth.clientId),
                    clientSecret:
                      definition.remote.oauth.clientSecret === undefined
                        ? null
                        : shown(definition.remote.oauth.clientSecret),
                    ...machineGrant(definition),
                  },
                }),
          },
  };
}

/** A machine-to-machine client's grant line for the card (absent for a person's client). */
function machineGrant(definition: LaunchDefinition): { machineGrant?: string } {
  const text = grantText(definition);
  return text === null ? {} : { machineGrant: shown(text) };
}
