import type { LaunchDefinition, PreRegisteredClient } from '../shared/server-spec';
import { canonicalHash } from '../shared/canonical-json';
import { compareCodeUnits } from '../shared/compare';

/**
 * Launch fingerprints (design.md D6): the identity of exactly what would run, so trust is tied to
 * the process and not to a server's name. Otherwise a repository earns consent for
 * `npx @modelcontextprotocol/server-filesystem` and then swaps in `sh -c 'curl … | sh'` under the
 * same name (seeds/levelcode-mcp-plan.md §4 G1).
 *
 * Nothing is normalized: not case, not Unicode form, not `..` segments, not whitespace. Two
 * spellings of one thing cost an extra prompt; a normalization that merged two different things
 * would let a change keep its approval, which is the dangerous direction.
 */

/** Bump when the fingerprinted object changes shape; every stored approval then re-prompts. */
export const LAUNCH_FINGERPRINT_VERSION = 1;

/** What the host would spawn for one server, as shown on the consent card. */
/**
 * Lower-case hex SHA-256 (64 chars) over the canonical JSON of
 * `{ v, executable, args, env: [[key, value], ...] sorted by key, cwd, provenance, workspaceRoot }`,
 * plus `remote` for a remote server and `toolPrefix` for one that a workspace file names.
 * Equal for two definitions exactly when `diffLaunch` finds no change between them; independent of
 * the order in which the env object's keys (or the definition's fields) were inserted.
 *
 * SHA-256 and not the short hash used for tool names: the attacker knows the trusted value (they
 * wrote the command that earned trust) and controls the replacement, so a second preimage is the
 * attack.
 *
 * Why env is in it at all: `NODE_OPTIONS=--require /tmp/evil.js`, `LD_PRELOAD` or `PYTHONPATH`
 * run code without touching the command or the args.
 *
 * Why env is fingerprinted unexpanded: the card shows, and the user approves, the entry's text
 * (`GITHUB_TOKEN=${GITHUB_TOKEN}`), never the secret itself; and a token rotated in the user's own
 * environment is not a change to what the repository asked for, so it must not re-prompt. The
 * price is that a changed value behind `${VAR}` is not seen here; that value is the user's own.
 *
 * Env is encoded as `[key, value]` pairs, never `key=value` strings, which would make
 * `{"a": "b=c"}` and `{"a=b": "c"}` the same text.
 */
export function launchFingerprint(def: LaunchDefinition): string {
  return canonicalHash({
    v: LAUNCH_FINGERPRINT_VERSION,
    executable: def.executable,
    args: [...def.args],
    env: sortedEnv(def.env),
    cwd: def.cwd,
    provenance: def.provenance,
    workspaceRoot: def.workspaceRoot,
    // A remote server (issue 11): what it would contact and send. Header values unexpanded, like
    // env, for the same reasons. Absent for a local server, whose fingerprint is unchanged.
    ...(def.remote === undefined
      ? {}
      : {
          remote: {
            transport: def.remote.transport,
            url: def.remote.url,
            headers: sortedEnv(def.remote.headers),
            // A pre-registered OAuth client: whose sign-in it is, and which variable holds its
            // secret (unexpanded, like headers). Absent without `oauth`, so every remote
            // definition approved before keeps its fingerprint. Its scopes are not here: the
            // authorization server's own page shows what is granted.
            ...(def.remote.oauth === undefined
              ? {}
              : {
                  oauth: {
                    clientId: def.remote.oauth.clientId,
                    clientSecret: def.remote.oauth.clientSecret ?? null,
                    // A machine-to-machine client (decision 0024) mints tokens with no page to
                    // show what it is granted, so its scopes, key reference and issuer count.
                    ...(def.remote.oauth.grant === undefined
                      ? {}
                      : {
                          grant: def.remote.oauth.grant,
                          privateKey: def.remote.oauth.privateKey ?? null,
                          algorithm: def.remote.oauth.algorithm ?? null,
                          issuer: def.remote.oauth.issuer ?? null,
                          scopes: [...def.remote.oauth.scopes],
                          // Cross-app access (decision 0032): which IdP gets the ID token, from
                          // which variables. Only then, so client credentials keep theirs.
                          ...(def.remote.oauth.idp === undefined
                            ? {}
                            : {
                                idp: {
                                  issuer: def.remote.oauth.idp.issuer,
                                  tokenEndpoint: def.remote.oauth.idp.tokenEndpoint ?? null,
                                  clientId: def.remote.oauth.idp.clientId,
                                  clientSecret: def.remote.oauth.idp.clientSecret ?? null,
                                  idToken: def.remote.oauth.idp.idToken,
                                },
                              }),
                        }),
                  },
                }),
          },
        }),
    // The head of a workspace-only server's tool names, as merged: allow rules and profile
    // filters are globs over those names, so whatever renames an approved server's tools (the
    // repository, or a server of the user's that went away) asks again. Absent otherwise, so
    // every other definition keeps its fingerprint.
    ...(def.toolPrefix === undefined ? {} : { toolPrefix: def.toolPrefix }),
  });
}

type LaunchField =
  | 'executable'
  | 'args'
  | 'cwd'
  | 'provenance'
  | 'workspaceRoot'
  | 'transport'
  | 'oauthClientId'
  | 'oauthClientSecret'
  | 'oauthGrant'
  | 'toolPrefix';

/**
 * One difference between an approved definition and the one about to run. `before`/`after` are
 * display text: paths and values as is, args as a JSON array (so `["a b"]` and `["a", "b"]` look
 * different), `(none)` for a null cwd or workspace root and `null` for an absent env key. Where
 * the two would render alike (they differ only in Unicode normalization, NFC vs NFD), every
 * non-ASCII character of both is shown as `⟦U+XXXX⟧`. Text still goes through the untrusted-text
 * sanitizer (D9) before a UI shows it: workspace configs are repository-authored.
 */
export type LaunchChange =
  | { field: LaunchField; before: string; after: string }
  | { field: 'env' | 'header'; key: string; before: string | null; after: string | null };

const NONE = '(none)';

/**
 * Every difference between `before` and `after`, in the order executable, transport, args, env
 * (by key), headers (by key), the OAuth client id and secret reference, the grant, cwd, tool
 * prefix, provenance, workspaceRoot. Empty exactly when their fingerprints are equal. Args are one
 * change, not one per position: a shifted list would otherwise read as many edits.
 */
export function diffLaunch(before: LaunchDefinition, after: LaunchDefinition): LaunchChange[] {
  const changes: LaunchChange[] = [];
  const field = (name: LaunchField, a: string | null, b: string | null) => {
    if (a !== b) changes.push({ field: name, ...distinguishable(a ?? NONE, b ?? NONE) });
  };
  // A remote server's executable is its URL.
  field('executable', before.executable, after.executable);
  field('transport', transportOf(before), transportOf(after));
  if (!sameList(before.args, after.args)) {
    const shown = distinguishable(JSON.stringify(before.args), JSON.stringify(after.args));
    changes.push({ field: 'args', ...shown });
  }
  keyedChanges(changes, 'env', before.env, after.env);
  keyedChanges(changes, 'header', before.remote?.headers ?? {}, after.remote?.headers ?? {});
  field(
    'oauthClientId',
    before.remote?.oauth?.clientId ?? null,
    after.remote?.oauth?.clientId ?? null,
  );
  field(
    'oauthClientSecret',
    before.remote?.oauth?.clientSecret ?? null,
    after.remote?.oauth?.clientSecret ?? null,
  );
  field('oauthGrant', grantText(before), grantText(after));
  field('cwd', before.cwd, after.cwd);
  field('toolPrefix', before.toolPrefix ?? null, after.toolPrefix ?? null);
  field('provenance', before.provenance, after.provenance);
  field('workspaceRoot', before.workspaceRoot, after.workspaceRoot);
  return changes;
}

/**
 * A machine-to-machine client's grant as one line, or null for a client a person signs in with:
 * `client_credentials with private key ${KEY} (ES256), issuer "https://idp", scopes ["a"]`. Each
 * part is quoted or restricted (a `${VAR}`, an algorithm name), so two different clients never
 * read alike.
 */
export function grantText(def: LaunchDefinition): string | null {
  const oauth = def.remote?.oauth;
  if (oauth?.grant === undefined) return null;
  if (oauth.grant === 'cross-app-access') return crossAppText(oauth);
  const credential =
    oauth.privateKey === undefined
      ? 'client secret'
      : `private key ${oauth.privateKey}${oauth.algorithm === undefined ? '' : ` (${oauth.algorithm})`}`;
  const issuer =
    oauth.issuer === undefined
      ? 'issuer pinned on first use'
      : `issuer ${JSON.stringify(oauth.issuer)}`;
  return `${oauth.grant} with ${credential}, ${issuer}, scopes ${JSON.stringify(oauth.scopes)}`;
}

/**
 * A cross-app access client as one line: which IdP receives the user's ID token (from which
 * variable, at which endpoint, as which client), and which authorization server the grant is
 * for: `cross-app-access: ID token ${IDP_ID_TOKEN} sent to IdP "https://idp" (client "app",
 * token endpoint discovered) for a grant to issuer "https://as", scopes []`.
 */
function crossAppText(oauth: PreRegisteredClient): string {
  const idp = oauth.idp;
  const endpoint =
    idp?.tokenEndpoint === undefined
      ? 'token endpoint discovered'
      : `token endpoint ${JSON.stringify(idp.tokenEndpoint)}`;
  const secret = idp?.clientSecret === undefined ? 'no secret' : `secret ${idp.clientSecret}`;
  const issuer =
    oauth.issuer === undefined
      ? 'the authorization server the MCP server names, pinned on first use'
      : `issuer ${JSON.stringify(oauth.issuer)}`;
  return `cross-app-access: ID token ${idp?.idToken ?? '?'} sent to IdP ${JSON.stringify(idp?.issuer ?? '?')} (client ${JSON.stringify(idp?.clientId ?? '?')}, ${secret}, ${endpoint}) for a grant to ${issuer}, scopes ${JSON.stringify(oauth.scopes)}`;
}

/** How a definition reaches its server: `stdio` for a local one, else the remote transport. */
function transportOf(def: LaunchDefinition): string {
  return def.remote?.transport ?? 'stdio';
}

function keyedChanges(
  changes: LaunchChange[],
  field: 'env' | 'header',
  before: Readonly<Record<string, string>>,
  after: Readonly<Record<string, string>>,
): void {
  const was = new Map(Object.entries(before));
  const now = new Map(Object.entries(after));
  const keys = [...new Set([...was.keys(), ...now.keys()])].sort(compareCodeUnits);
  for (const key of keys) {
    const a = was.get(key) ?? null;
    const b = now.get(key) ?? null;
    if (a === b) continue;
    const shown = a !== null && b !== null ? distinguishable(a, b) : { before: a, after: b };
    changes.push({ field, key, ...shown });
  }
}

const LABELS: Record<LaunchChange['field'], string> = {
  executable: 'command',
  transport: 'transport',
  header: 'headers',
  oauthClientId: 'OAuth client',
  oauthClientSecret: 'OAuth client secret',
  oauthGrant: 'OAuth grant',
  args: 'args',
  env: 'env',
  cwd: 'working folder',
  toolPrefix: 'tool prefix',
  provenance: 'source',
  workspaceRoot: 'workspace folder',
};

const FIELD_ORDER: readonly LaunchChange['field'][] = [
  'executable',
  'transport',
  'args',
  'env',
  'header',
  'oauthClientId',
  'oauthClientSecret',
  'oauthGrant',
  'cwd',
  'toolPrefix',
  'workspaceRoot',
  'provenance',
];

const MAX_KEY_LABEL_CHARS = 40;

/**
 * One short line for a consent card: `command changed - needs approval`,
 * `command and env changed - needs approval`, or, when the only change is one env key,
 * `env NODE_OPTIONS added - needs approval`. Empty string for no changes. Env key names are
 * quoted when they are not plain identifiers and cut at 40 characters; values never appear.
 */
export function describeLaunchChanges(
  changes: readonly LaunchChange[],
  kind: 'local' | 'remote' = 'local',
): string {
  const fields = FIELD_ORDER.filter((name) => changes.some((change) => change.field === name));
  const [only] = changes;
  if (changes.length === 1 && (only?.field === 'env' || only?.field === 'header')) {
    const verb = only.before === null ? 'added' : only.after === null ? 'removed' : 'changed';
    return `${only.field} ${keyLabel(only.key, only.field)} ${verb} - needs approval`;
  }
  // A remote server's "executable" is the address it connects to.
  const names = fields.map((name) =>
    name === 'executable' && kind === 'remote' ? 'URL' : LABELS[name],
  );
  const last = names.pop();
  if (last === undefined) return '';
  const list = names.length === 0 ? last : `${names.join(', ')} and ${last}`;
  return `${list} changed - needs approval`;
}

function sortedEnv(env: Readonly<Record<string, string>>): [string, string][] {
  return Object.entries(env).sort(([a], [b]) => compareCodeUnits(a, b));
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

/** `before`/`after` as is, unless they differ only in a way that renders identically. */
function distinguishable(before: string, after: string): { before: string; after: string } {
  if (before === after || before.normalize('NFKC') !== after.normalize('NFKC')) {
    return { before, after };
  }
  return { before: escapeNonAscii(before), after: escapeNonAscii(after) };
}

function escapeNonAscii(text: string): string {
  return text.replace(
    /[^\x20-\x7e]/gu,
    (char) => `⟦U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟧`,
  );
}

function keyLabel(key: string, field: 'env' | 'header'): string {
  // A header name is an RFC 9110 token (checked at load): shown bare, like a plain env name.
  const plain =
    field === 'header'
      ? /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)
      : /^[A-Za-z_][A-Za-z0-9_]*$/.test(key);
  const label = plain ? key : escapeNonAscii(JSON.stringify(key));
  return label.length > MAX_KEY_LABEL_CHARS ? `${label.slice(0, MAX_KEY_LABEL_CHARS - 1)}…` : label;
}
