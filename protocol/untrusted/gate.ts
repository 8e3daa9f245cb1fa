import { capText } from './cap';
import { redactSecrets } from './redact';
import { sanitizeDeep, sanitizeText, type SanitizeOptions } from './sanitize';

/**
 * The untrusted-text gate (design D9): the one way server-originated text is made safe to show a
 * model, a person or a log. In this order, because each step needs the one before:
 *
 * 1. sanitize: control, escape, bidi, zero-width and tag characters become visible markers
 *    (a zero-width character inside a token would hide it from step 2);
 * 2. redact: recognised secrets become `[REDACTED:<kind>]` (a token cut in half by step 3 would
 *    no longer be recognised);
 * 3. cap, when a budget is given: the marker `…[truncated: showing N of M characters]`, the same
 *    everywhere, so neither a model nor a reader mistakes a prefix for the whole.
 *
 * The host applies it to every string a server sends (tool names, titles, descriptions and schema
 * strings in `tools/list`, results, errors, stderr, server names and versions); the extension
 * relies on the host for those and keeps a pass of its own only for page text it reads itself.
 */

export interface SafeTextOptions extends SanitizeOptions {
  /** Budget in UTF-16 code units, marker included; no cap when absent. */
  readonly maxChars?: number;
}

/** What the gate did to one string. */
export interface SafeText {
  readonly text: string;
  /** Secrets replaced. */
  readonly redactions: number;
  /** True when the cap cut anything. */
  readonly truncated: boolean;
}

/** Sanitizes, redacts and (with `maxChars`) caps `text`, and says what it did. */
export function gateText(text: string, options: SafeTextOptions = {}): SafeText {
  const { maxChars, ...sanitize } = options;
  const redacted = redactSecrets(sanitizeText(text, sanitize));
  if (maxChars === undefined) {
    return { text: redacted.text, redactions: redacted.redactions, truncated: false };
  }
  const capped = capText(redacted.text, maxChars);
  return { text: capped.text, redactions: redacted.redactions, truncated: capped.truncated };
}

/** `gateText(text, options).text`: the safe form of one server string. */
export function safeText(text: string, options: SafeTextOptions = {}): string {
  return gateText(text, options).text;
}

/**
 * Whether `text` passes the gate unchanged. A value that goes back to the server as it came (an
 * elicitation choice, a resource URI, a prompt's name) must also be what was shown: one the gate
 * would change (a hidden character marked, a token redacted) cannot be both, and is refused.
 */
export function isVerbatim(text: string): boolean {
  return safeText(text) === text;
}

/**
 * The safe form of a JSON value a server sent (a tool's input schema, structured content): every
 * string, object keys included, sanitized and then redacted. Bounded like `sanitizeDeep`, whose
 * depth and node bounds apply first, so the redaction pass walks a value of bounded size.
 */
export function safeDeep(value: unknown): unknown {
  return redactDeep(sanitizeDeep(value));
}

function redactDeep(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value).text;
  if (Array.isArray(value)) return value.map(redactDeep);
  if (typeof value !== 'object' || value === null) return value;
  // fromEntries defines own properties, so a "__proto__" key stays data instead of a prototype.
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [redactSecrets(key).text, redactDeep(child)]),
  );
}

/** What `safeJson` answers when redaction broke the JSON text it worked on. */
export const WITHHELD_JSON = {
  redacted: '[Switchyard: structured content withheld: it contained secrets]',
} as const;

/**
 * The safe form of data a server returned (structured content): sanitized like `safeDeep`, then
 * redacted as one JSON text, so a secret split across a key and its value
 * (`{"authorization": "Basic …"}`) is still seen. When a redaction breaks the JSON, the whole
 * value is withheld (`WITHHELD_JSON`) rather than shown in part.
 */
export function safeJson(value: unknown): unknown {
  const sanitized = sanitizeDeep(value);
  const redacted = redactSecrets(JSON.stringify(sanitized));
  if (redacted.redactions === 0) return sanitized;
  try {
    return JSON.parse(redacted.text) as unknown;
  } catch {
    return WITHHELD_JSON;
  }
}
