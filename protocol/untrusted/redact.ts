/**
 * Redaction of secrets in untrusted text (design.md D9). MCP servers run with the user's
 * credentials in their environment and echo them back more often than one would hope (debug
 * output, stack traces, `env` dumps, git remotes). Every recognised secret is replaced by
 * `[REDACTED:<kind>]` before the text reaches a model, a UI or a log.
 *
 * Only formats with a distinctive prefix or a naming context are matched; bare hex or base64 (git
 * SHAs, checksums, UUIDs) is never redacted on shape alone. Where a prefix also starts ordinary
 * words (`sk-`, `xox?-`), a token must also look random (see `accept`).
 *
 * Every pattern is linear: it starts at a literal prefix (a URL at its "://"), and each unbounded
 * run is over a class that cannot contain the start of another attempt (the start lookbehind
 * excludes it, or the prefix contains a character the class lacks), so no character is scanned by
 * more than a few attempts; adjacent quantifiers never overlap. `redact.test.ts` runs each against
 * 1 MB of its own prefix.
 */

/** The kinds of secret `redactSecrets` recognises; the `<kind>` in `[REDACTED:<kind>]`. */
export type SecretKind =
  | 'private-key'
  | 'authorization'
  | 'jwt'
  | 'anthropic'
  | 'openai'
  | 'github'
  | 'gitlab'
  | 'slack'
  | 'slack-webhook'
  | 'google-api-key'
  | 'stripe'
  | 'npm'
  | 'aws-access-key-id'
  | 'aws-secret-access-key'
  | 'url-password';

/** Result of `redactSecrets`. */
export interface Redacted {
  readonly text: string;
  /** Number of secrets replaced. */
  readonly redactions: number;
}

interface SecretRule {
  readonly kind: SecretKind;
  /**
   * Global pattern. An optional `pre` group is context kept verbatim (a header name, a URL's
   * user); the `secret` group, or the whole match without one, is replaced.
   */
  readonly pattern: RegExp;
  /** Extra check on the secret (the whole match without a `secret` group), for prefixes that also begin ordinary words. */
  readonly accept?: (secret: string) => boolean;
}

const hasDigit = (s: string): boolean => /[0-9]/.test(s);
const hasLetter = (s: string): boolean => /[A-Za-z]/.test(s);

/**
 * A real key is random base62 (mixed case and digits) or random hex (no hyphens); a slug such as
 * `sk-release-notes-2024` is neither.
 */
function looksRandom(secret: string): boolean {
  return hasDigit(secret) && hasLetter(secret) && (/[A-Z]/.test(secret) || !secret.includes('-'));
}

// Header names whose value is a credential. `private-token` is GitLab's.
const CREDENTIAL_HEADER = String.raw`(?:proxy-)?authorization|x-api-key|api-key|x-auth-token|private-token`;
const HEADER_SEPARATOR = String.raw`["']?[ \t]{0,8}[:=][ \t]{0,8}["']?`;
const AUTH_SCHEME = String.raw`(?:bearer|basic|token|digest|negotiate|ntlm|apikey|aws4-hmac-sha256)`;
const PRIVATE_KEY_LABEL = String.raw`[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----`;

/** Order matters: whole blocks and headers first, so a JWT in a Bearer header counts once. */
const RULES: readonly SecretRule[] = [
  {
    // RFC 7468 block, whole. The body stops at the next "-----", so a BEGIN without an END (a
    // truncated key still leaks most of it) is redacted up to the next marker or the end.
    kind: 'private-key',
    pattern: new RegExp(
      String.raw`-----BEGIN ${PRIVATE_KEY_LABEL}[^-]*(?:-(?!----)[^-]*)*(?:-----END ${PRIVATE_KEY_LABEL})?`,
      'g',
    ),
  },
  {
    // `Authorization: Bearer <token>`, `"authorization": "Basic <b64>"`: keep name and scheme.
    kind: 'authorization',
    pattern: new RegExp(
      String.raw`(?<pre>\b(?:${CREDENTIAL_HEADER})${HEADER_SEPARATOR}${AUTH_SCHEME}[ \t]{1,8})(?<secret>[^\s"',;\[\]]+)`,
      'gi',
    ),
  },
  {
    // A header with a raw token and no scheme (`x-api-key: 0123abcd...`): only if it looks like one,
    // so the prose "Authorization: required" survives.
    kind: 'authorization',
    pattern: new RegExp(
      String.raw`(?<pre>\b(?:${CREDENTIAL_HEADER})${HEADER_SEPARATOR})(?<secret>[A-Za-z0-9._~+/=-]{16,})`,
      'gi',
    ),
    accept: (secret) => hasDigit(secret) && hasLetter(secret),
  },
  {
    // A bare bearer token outside a header (`curl ... Bearer abc...`, logs).
    kind: 'authorization',
    pattern: /(?<pre>(?<![A-Za-z0-9_-])[Bb]earer[ \t]{1,8})(?<secret>[A-Za-z0-9._~+/-]{16,}=*)/g,
    accept: (secret) => hasDigit(secret) && hasLetter(secret),
  },
  {
    // RFC 7515/7516 compact JWS (3 segments) or JWE (5): a base64url JSON header (`{"` is "eyJ"),
    // then segments that may be empty (JWE "dir" has no key) except the last. An unsigned
    // `header.payload.` is not a credential and is left alone.
    kind: 'jwt',
    pattern: /(?<![A-Za-z0-9_.-])eyJ[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*){1,3}\.[A-Za-z0-9_-]+/g,
  },
  {
    kind: 'anthropic',
    pattern: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,}/g,
  },
  {
    // Legacy `sk-<48>`, `sk-proj-`, `sk-svcacct-`, `sk-admin-`; many OpenAI-compatible APIs too.
    kind: 'openai',
    pattern: /(?<![A-Za-z0-9_-])sk-(?!ant-)[A-Za-z0-9_-]{20,}/g,
    accept: (token) => looksRandom(token.replace(/^sk-(?:proj-|svcacct-|admin-)?/, '')),
  },
  {
    // Classic (ghp_ gho_ ghu_ ghs_ ghr_) tokens are 36 base62 characters; fine-grained ones longer.
    kind: 'github',
    pattern:
      /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{22,251})(?![A-Za-z0-9_])/g,
  },
  {
    kind: 'gitlab',
    pattern: /(?<![A-Za-z0-9_.-])gl(?:pat|dt|rt|ptt|cbt|soat|ffct)-[A-Za-z0-9_.-]{20,}/g,
  },
  {
    // Bot, user, app, refresh and legacy tokens. `xoxo` (hugs and kisses) is not a prefix.
    kind: 'slack',
    pattern: /(?<![A-Za-z0-9_-])(?:xox[abeprs]|xapp)-[A-Za-z0-9-]{10,}/g,
    accept: hasDigit,
  },
  {
    // Incoming webhooks post to a channel with no other credential: the path is the secret.
    kind: 'slack-webhook',
    pattern:
      /(?<pre>https:\/\/hooks\.slack\.com\/)(?<secret>(?:services|workflows|triggers)\/[A-Za-z0-9_/+-]{8,})/g,
  },
  {
    kind: 'google-api-key',
    pattern: /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g,
  },
  {
    // Secret and restricted keys, live and test, and webhook signing secrets. Publishable
    // `pk_` keys are public by design.
    kind: 'stripe',
    pattern:
      /(?<![A-Za-z0-9_])(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,})/g,
  },
  {
    kind: 'npm',
    pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])/g,
  },
  {
    // Long-term (AKIA) and temporary (ASIA) access key ids.
    kind: 'aws-access-key-id',
    pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g,
  },
  {
    // A secret access key is 40 characters of base64 with no prefix: only its name finds it
    // (`aws_secret_access_key = ...`, `AWS_SECRET_ACCESS_KEY=...`, `"SecretAccessKey": "..."`).
    kind: 'aws-secret-access-key',
    pattern: new RegExp(
      String.raw`(?<pre>secret_?access_?key${HEADER_SEPARATOR})(?<secret>[A-Za-z0-9/+=]{16,})`,
      'gi',
    ),
  },
  {
    // scheme://user:password@host (RFC 3986 userinfo): keep the user, drop the password. `[` and
    // `]` are excluded from the password so an earlier redaction inside it is not counted twice.
    kind: 'url-password',
    pattern:
      /(?<pre>(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/[^\s:/?#@"'<>[\]]*:)(?<secret>[^\s/?#@"'<>[\]]+)(?=@)/g,
  },
];

function applyRule(text: string, rule: SecretRule): Redacted {
  let redactions = 0;
  const replaced = text.replace(rule.pattern, (match: string, ...rest: unknown[]) => {
    const groups = rest.at(-1);
    const pre = typeof groups === 'object' && groups !== null ? groupText(groups, 'pre') : '';
    const secret =
      typeof groups === 'object' && groups !== null ? groupText(groups, 'secret') : undefined;
    if (rule.accept !== undefined && !rule.accept(secret ?? match)) return match;
    redactions += 1;
    return `${pre}[REDACTED:${rule.kind}]`;
  });
  return { text: replaced, redactions };
}

function groupText(groups: object, name: string): string {
  const value: unknown = Reflect.get(groups, name);
  return typeof value === 'string' ? value : '';
}

/**
 * Replaces every recognised secret in `text` with `[REDACTED:<kind>]` and counts them. Recognised:
 * PEM private key blocks (whole, even without END); credentials after `Authorization`,
 * `Proxy-Authorization`, `X-Api-Key`, `Api-Key`, `X-Auth-Token`, `Private-Token` and bare
 * `Bearer` (name and scheme kept); JWTs; Anthropic `sk-ant-`; OpenAI-style `sk-`/`sk-proj-`; GitHub
 * `gh[pousr]_`/`github_pat_`; GitLab `glpat-` and kin; Slack `xox?-`/`xapp-` tokens and webhook
 * URLs (host kept); Google `AIza`; Stripe `sk_`/`rk_` live/test and `whsec_`; npm `npm_`; AWS
 * `AKIA`/`ASIA` key ids and secret keys named `secret_access_key` (name kept); URL passwords in
 * `scheme://user:pass@` (user kept). Git SHAs, UUIDs and other bare hex or base64 are left alone.
 * Linear in the input. Run after `sanitizeText` (a zero-width character inside a token hides it)
 * and before `capText` (a token cut in half is no longer recognised).
 */
export function redactSecrets(text: string): Redacted {
  let current = text;
  let redactions = 0;
  for (const rule of RULES) {
    const result = applyRule(current, rule);
    current = result.text;
    redactions += result.redactions;
  }
  return { text: current, redactions };
}
