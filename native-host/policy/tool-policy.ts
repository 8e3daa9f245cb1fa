import { z } from 'zod';
import type { Hint } from '../shared/tool-definition';
import { globMatches, globProblem, globSpecificity, isLiteralGlob, normalizeGlob } from './glob';

/**
 * Whether one MCP tool call may run without asking (design D8, seeds G2/G3). Only the user's
 * `toolPolicy` allow-list grants `allow`; server annotations are untrusted and may only tighten;
 * a definition changed since it was pinned (D7) suspends an allow; autopilot grants nothing.
 *
 * Error direction: an `allow` where `ask` was due runs a third-party tool unseen, so every doubt
 * resolves towards asking. An extra prompt only costs the user a click.
 */

export const PolicyValueSchema = z.enum(['allow', 'ask', 'deny']);
export type PolicyValue = z.infer<typeof PolicyValueSchema>;

/** A `toolPolicy` key: a glob over exposed tool names (see glob.ts). */
export const ToolGlobSchema = z.string().superRefine((pattern, ctx) => {
  const problem = globProblem(pattern);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});

/**
 * `toolPolicy` in config.json, strictly: `{ "<glob>": "allow" | "ask" | "deny" }`. For writers
 * (the options page, the CLI) that must not save a bad entry; the host reads the file with the
 * lenient parseToolPolicy instead, so one typo does not cost the whole policy.
 */
export const ToolPolicySchema = z.record(ToolGlobSchema, PolicyValueSchema);
export type ToolPolicy = z.infer<typeof ToolPolicySchema>;

/** One usable `toolPolicy` entry; `glob` is normalized (runs of `*` collapsed). */
export interface ToolPolicyRule {
  readonly glob: string;
  readonly value: PolicyValue;
}

/** The entries in file order. Order never affects a decision. */
export type ToolPolicyRules = readonly ToolPolicyRule[];

export interface ToolPolicyInput {
  /** The name the model called, as in the host's name table (design D4). */
  readonly exposedName: string;
  readonly rules: ToolPolicyRules;
  /** The server's claims (untrusted), as parsed by parseToolDefinition. */
  readonly hints: { readonly destructiveHint: Hint; readonly readOnlyHint: Hint };
  /** D7: `changed` = the definition differs from the one pinned when the tool was approved. */
  readonly pin: 'unpinned' | 'match' | 'changed';
  /** The extension's autopilot toggle. Read by nobody here: MCP calls never ride on it (G3). */
  readonly autopilot: boolean;
}

/**
 * Why a call is asked about although it might otherwise have run, for the approval card:
 * `destructive` (the server declares `destructiveHint: true`), `destructive-malformed` (it sent a
 * destructiveHint that is not a boolean), `definition-changed` (D7 pin mismatch).
 */
export type PolicyWarning = 'destructive' | 'destructive-malformed' | 'definition-changed';

/**
 * `rule` names the deciding entry's glob: for `ask`, the matching `ask` entry, else the `allow`
 * entry a warning overrode, else null (no entry matched: the default).
 */
export type PolicyDecision =
  | { kind: 'allow'; rule: string }
  | { kind: 'ask'; warnings: readonly PolicyWarning[]; rule: string | null }
  | { kind: 'deny'; rule: string };

/**
 * Decides one call. Precedence, most restrictive first, so that no entry can be widened by
 * another one the user happened to write more specifically:
 * 1. any matching `deny` entry: deny;
 * 2. any matching `ask` entry: ask (an explicit ask beats an allow, whichever is more specific);
 * 3. a matching `allow` entry: allow, unless a warning (destructive or malformed destructive hint,
 *    changed definition) turns it into ask;
 * 4. nothing matches: ask.
 * `readOnlyHint` and `autopilot` are never read. Warnings are listed on every `ask`, whether or not
 * an allow entry was overridden, so the card can show them. When several entries of the deciding
 * kind match, the most specific (globSpecificity, then alphabetical) is named in `rule`.
 */
export function decideToolPolicy(input: ToolPolicyInput): PolicyDecision {
  const matching = input.rules.filter((rule) => globMatches(rule.glob, input.exposedName));
  const deny = mostSpecific(matching, 'deny');
  if (deny !== undefined) return { kind: 'deny', rule: deny };

  const warnings: PolicyWarning[] = [];
  // The spec's default for an absent destructiveHint is true, but a default is not a claim: only
  // an explicit true, or a value we cannot read, tightens (D8).
  if (input.hints.destructiveHint === true) warnings.push('destructive');
  if (input.hints.destructiveHint === 'malformed') warnings.push('destructive-malformed');
  if (input.pin === 'changed') warnings.push('definition-changed');

  const ask = mostSpecific(matching, 'ask');
  if (ask !== undefined) return { kind: 'ask', warnings, rule: ask };
  const allow = mostSpecific(matching, 'allow');
  if (allow !== undefined && warnings.length === 0) return { kind: 'allow', rule: allow };
  return { kind: 'ask', warnings, rule: allow ?? null };
}

/**
 * Reads `toolPolicy` from the parsed config file. Never throws. `undefined` (no key) is an empty
 * policy. Warnings, one line each, say what was ignored and what to do:
 * - not an object: the whole policy is ignored, so every tool asks;
 * - a key that is not a usable glob: that entry is dropped; such a glob matches no exposed name,
 *   so dropping it changes no decision;
 * - a value other than "allow", "ask", "deny": the entry counts as "ask" (a typo never grants,
 *   and still overrides a broader allow, which a dropped entry would not);
 * - an `allow` that can never apply because an `ask` or `deny` entry covers it.
 */
export function parseToolPolicy(raw: unknown): { rules: ToolPolicyRules; warnings: string[] } {
  if (raw === undefined) return { rules: [], warnings: [] };
  const object = PolicyObjectSchema.safeParse(raw);
  if (!object.success) {
    return {
      rules: [],
      warnings: [
        'toolPolicy must be an object mapping tool patterns to "allow", "ask" or "deny", e.g. {"github__list_*": "allow"}; it is ignored, so every MCP tool asks before it runs',
      ],
    };
  }

  const rules: ToolPolicyRule[] = [];
  const warnings: string[] = [];
  // Object.entries, not z.record: a "__proto__" key is an own property of parsed JSON and must be
  // reported like any other, not skipped.
  for (const [key, value] of Object.entries(object.data)) {
    const problem = globProblem(key);
    if (problem !== undefined) {
      warnings.push(`toolPolicy ${show(key)}: ${problem}; the entry is ignored`);
      continue;
    }
    const parsed = PolicyValueSchema.safeParse(value);
    if (!parsed.success) {
      warnings.push(
        `toolPolicy ${show(key)}: ${showValue(value)} is not "allow", "ask" or "deny"; it counts as "ask" until fixed`,
      );
    }
    rules.push({ glob: normalizeGlob(key), value: parsed.success ? parsed.data : 'ask' });
  }
  warnings.push(...shadowedAllowWarnings(rules));
  return { rules, warnings };
}

const PolicyObjectSchema = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
);

function mostSpecific(rules: ToolPolicyRules, value: PolicyValue): string | undefined {
  let best: string | undefined;
  for (const rule of rules) {
    if (rule.value !== value) continue;
    if (best === undefined) {
      best = rule.glob;
      continue;
    }
    const delta = globSpecificity(rule.glob) - globSpecificity(best);
    if (delta > 0 || (delta === 0 && rule.glob < best)) best = rule.glob;
  }
  return best;
}

/**
 * An allow entry that an ask/deny entry fully covers does nothing, which surprises a user who
 * expects the more specific entry to win. Reported only when coverage is certain: the allow is a
 * literal name, or the covering glob has no `?` (its `*`s then absorb the allow's wildcards).
 */
function shadowedAllowWarnings(rules: ToolPolicyRules): string[] {
  const warnings: string[] = [];
  for (const allow of rules) {
    if (allow.value !== 'allow') continue;
    const cover = rules.find(
      (other) =>
        other.value !== 'allow' &&
        (isLiteralGlob(allow.glob) || !other.glob.includes('?')) &&
        globMatches(other.glob, allow.glob),
    );
    if (cover !== undefined) {
      warnings.push(
        `toolPolicy ${show(allow.glob)}: "allow" has no effect, because ${show(cover.glob)} is "${cover.value}" and ${cover.value} wins over allow; narrow ${show(cover.glob)} to let it apply`,
      );
    }
  }
  return warnings;
}

const MAX_SHOWN_CHARS = 80;

function show(text: string): string {
  return JSON.stringify(
    text.length > MAX_SHOWN_CHARS ? `${text.slice(0, MAX_SHOWN_CHARS)}...` : text,
  );
}

function showValue(value: unknown): string {
  if (typeof value === 'string') return show(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * What a profile adds to the user's policy (design D10): its rules join `toolPolicy` with the
 * same precedence (deny, then ask, then allow), and a read-only profile asks about every call.
 */
export interface PolicyOverlay {
  readonly rules: ToolPolicyRules;
  /** An `allow` still asks (read-only profiles: a read-only claim is only the server's word). */
  readonly askOnly: boolean;
}
