import { z } from 'zod';

/**
 * The activity log as the host serves it (`activity/list`) and the CLI prints it
 * (`switchyard activity`): entries of `$SWITCHYARD_HOME/audit.jsonl`, each saying what happened,
 * who decided and how big it was, never an argument or result value (design D9).
 */

/**
 * What an entry is about: a tool call, a launch held at the gate, a trust or a policy change, or
 * a server's question to the user (an elicitation) and how it ended.
 */
export const ActivityEventSchema = z.enum(['call', 'launch', 'trust', 'policy', 'question']);
export type ActivityEvent = z.infer<typeof ActivityEventSchema>;

/**
 * Who decided: `policy` (your `toolPolicy` rules and the active profile's, or the default `ask`),
 * `user` (you, on an approval or consent card, in the popup or options page, or in a terminal),
 * `host` (a gate of the host's own: the launch gate, an approval that did not hold, a question
 * nobody could be asked), `server` (it withdrew its own question).
 */
export const ActivityDeciderSchema = z.enum(['policy', 'user', 'host', 'server']);
export type ActivityDecider = z.infer<typeof ActivityDeciderSchema>;

/** Which client the recording host served: the browser's extension, or a `switchyard` command. */
export const ActivityViaSchema = z.enum(['browser', 'cli']);
export type ActivityVia = z.infer<typeof ActivityViaSchema>;

/**
 * The decisions the host records, by event. Calls: the policy's verdict (`allow`, `ask`, `deny`,
 * the words of `toolPolicy`) or the user's answer to the card (`approved`, `denied`), or the
 * host's refusal of an approval that did not hold (`refused`).
 */
export const CALL_DECISIONS = ['allow', 'ask', 'deny', 'approved', 'denied', 'refused'] as const;
/** A launch waiting at the gate is `ask`: the host asks you. */
export const LAUNCH_DECISIONS = ['ask'] as const;
/** `written-by-switchyard`: approved as written, by `servers/add`, import or `switchyard add`. */
export const TRUST_DECISIONS = [
  'approved',
  'revoked',
  'forgotten',
  'written-by-switchyard',
  'removed',
] as const;
/** A `toolPolicy` rule set to a value or removed; a profile saved (`set`) or removed. */
export const POLICY_DECISIONS = ['allow', 'ask', 'deny', 'removed', 'set'] as const;

/**
 * How a server's question ended: your answer on its card (`accepted`, `declined`, `cancelled`),
 * or the host's: declined with no side panel open (`no-page`) or no browser at all, as from a
 * `switchyard` command (`no-browser`), cancelled after nobody answered (`timed-out`) or as the host
 * shut down (`shutdown`), refused as a request it cannot show (`refused`); or the server's
 * (`withdrawn`: it cancelled the request, or the call it asked during ended).
 */
export const QUESTION_DECISIONS = [
  'accepted',
  'declined',
  'cancelled',
  'no-page',
  'no-browser',
  'timed-out',
  'shutdown',
  'refused',
  'withdrawn',
] as const;

export type QuestionDecision = (typeof QUESTION_DECISIONS)[number];
export type CallDecisionValue = (typeof CALL_DECISIONS)[number];
export type TrustDecision = (typeof TRUST_DECISIONS)[number];
export type PolicyChange = (typeof POLICY_DECISIONS)[number];
export type ActivityDecision =
  | CallDecisionValue
  | (typeof LAUNCH_DECISIONS)[number]
  | TrustDecision
  | PolicyChange
  | QuestionDecision;

const CALL_DECIDERS: Readonly<Record<CallDecisionValue, ActivityDecider>> = {
  allow: 'policy',
  ask: 'policy',
  deny: 'policy',
  approved: 'user',
  denied: 'user',
  refused: 'host',
};

const QUESTION_DECIDERS: Readonly<Record<QuestionDecision, ActivityDecider>> = {
  accepted: 'user',
  declined: 'user',
  cancelled: 'user',
  'no-page': 'host',
  'no-browser': 'host',
  'timed-out': 'host',
  shutdown: 'host',
  refused: 'host',
  withdrawn: 'server',
};

function isOneOf<T extends string>(list: readonly T[], value: string): value is T {
  return (list as readonly string[]).includes(value);
}

/**
 * Who made `decision` of an `event` entry; undefined for a decision this version does not know
 * (a newer host's, or a foreign line's). The one table: the audit log stamps `by` from it, and
 * the reader falls back on it for lines written before `by` was recorded.
 */
export function deciderOf(
  event: ActivityEvent,
  decision: string | undefined,
): ActivityDecider | undefined {
  switch (event) {
    case 'call':
      return decision !== undefined && isOneOf(CALL_DECISIONS, decision)
        ? CALL_DECIDERS[decision]
        : undefined;
    case 'launch':
      return 'host';
    case 'trust':
      return decision !== undefined && isOneOf(TRUST_DECISIONS, decision) ? 'user' : undefined;
    case 'policy':
      return decision !== undefined && isOneOf(POLICY_DECISIONS, decision) ? 'user' : undefined;
    case 'question':
      return decision !== undefined && isOneOf(QUESTION_DECISIONS, decision)
        ? QUESTION_DECIDERS[decision]
        : undefined;
  }
}

/** Longest name (server, tool, rule, profile) an entry carries, after the untrusted-text gate. */
export const MAX_ACTIVITY_NAME_CHARS = 256;
/** Longest decision or outcome word. */
export const MAX_ACTIVITY_WORD_CHARS = 64;

const Name = z.string().max(MAX_ACTIVITY_NAME_CHARS);
const Word = z.string().max(MAX_ACTIVITY_WORD_CHARS);
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const Count = z.number().int().nonnegative();

/** One entry of the activity log, as `activity/list` returns it. */
export const ActivityEntrySchema = z.object({
  /** When it was recorded (ISO 8601, UTC). */
  ts: z.iso.datetime(),
  event: ActivityEventSchema,
  server: Name.optional(),
  /** The tool's raw name on its server. */
  tool: Name.optional(),
  /** The model-facing name (`server__tool`). */
  exposedName: Name.optional(),
  /** The profile a call ran under, or the profile a policy change saved or removed. */
  profile: Name.optional(),
  /** The policy rule (a glob over exposed names) that decided a call, or that a change wrote. */
  rule: Name.optional(),
  decision: Word.optional(),
  by: ActivityDeciderSchema.optional(),
  via: ActivityViaSchema.optional(),
  /** Who asked for a call: `app` when an MCP App did (absent: the model). */
  caller: z.enum(['model', 'app']).optional(),
  /** How it ended: `ok`, `tool-error`, an error reason, `needs-approval`, `denied`. */
  outcome: Word.optional(),
  argumentsBytes: Count.optional(),
  argumentsHash: Sha256.optional(),
  resultBytes: Count.optional(),
  resultHash: Sha256.optional(),
  durationMs: Count.optional(),
  /** The launch fingerprint a trust decision or a held launch was about. */
  fingerprint: Sha256.optional(),
});
export type ActivityEntry = z.infer<typeof ActivityEntrySchema>;

/**
 * Where the next (older) page starts: the byte offset of a line in the log and a check of that
 * line's first bytes, so a cursor survives the log's rotation (the line moved to `audit.jsonl.1`
 * at the same offset) and a cursor whose line is gone is refused rather than misread. Opaque to
 * the extension: pass back what `nextCursor` gave.
 */
export const ActivityCursorSchema = z.string().regex(/^\d{1,15}-[0-9a-f]{16}$/);

/** Entries per page when `limit` is not given. */
export const DEFAULT_ACTIVITY_PAGE_ENTRIES = 50;
/** Most entries one page holds. */
export const MAX_ACTIVITY_PAGE_ENTRIES = 200;
/**
 * Most bytes of serialized entries one page holds: a page stops early rather than come near the
 * 1 MiB host -> browser frame (an entry is at most about 3 KiB, 200 of them would not fit).
 */
export const MAX_ACTIVITY_PAGE_BYTES = 256 * 1024;

/** What the entry is about besides its server: the tool, the rule, or the profile. */
export function activitySubject(entry: ActivityEntry): string {
  if (entry.exposedName !== undefined) return entry.exposedName;
  if (entry.tool !== undefined) return entry.tool;
  if (entry.rule !== undefined) return entry.rule;
  if (entry.profile !== undefined) return `profile ${entry.profile}`;
  return '';
}

function where(entry: ActivityEntry, inBrowser: string): string {
  if (entry.via === 'cli') return ' in a terminal';
  if (entry.via === 'browser') return inBrowser;
  return '';
}

function ruleNote(entry: ActivityEntry): string {
  return entry.rule === undefined ? '' : ` (rule ${entry.rule})`;
}

type Phrase = (entry: ActivityEntry) => string;

const CALL_TEXT: Readonly<Record<CallDecisionValue, Phrase>> = {
  allow: (e) => `allowed by policy${ruleNote(e)}`,
  ask: (e) => `asked you first${e.rule === undefined ? ' (default policy)' : ruleNote(e)}`,
  deny: (e) => `denied by policy${ruleNote(e)}`,
  approved: (e) => `approved by you${where(e, ' on the approval card')}`,
  denied: (e) => `denied by you${where(e, ' on the approval card')}`,
  refused: () => 'refused by the host (the approval did not hold)',
};

const TRUST_TEXT: Readonly<Record<TrustDecision, Phrase>> = {
  approved: (e) => `approved by you${where(e, ' in the browser')}`,
  revoked: (e) => `revoked by you${where(e, ' in the browser')}`,
  forgotten: (e) => `forgotten by you${where(e, ' in the browser')}`,
  'written-by-switchyard': (e) => `added by you${where(e, ' in the browser')}, approved as written`,
  removed: (e) => `removed by you${where(e, ' in the browser')}`,
};

const POLICY_TEXT: Readonly<Record<PolicyChange, Phrase>> = {
  allow: (e) => `set to allow by you${where(e, ' in the browser')}`,
  ask: (e) => `set to ask by you${where(e, ' in the browser')}`,
  deny: (e) => `set to deny by you${where(e, ' in the browser')}`,
  set: (e) => `saved by you${where(e, ' in the browser')}`,
  removed: (e) => `removed by you${where(e, ' in the browser')}`,
};

const QUESTION_TEXT: Readonly<Record<QuestionDecision, Phrase>> = {
  accepted: () => 'answered by you on its card',
  declined: () => 'declined by you on its card',
  cancelled: () => 'cancelled by you on its card',
  'no-page': () => 'declined by the host: no side panel was open to ask you',
  'no-browser': () => 'declined by the host: no browser to ask you (a terminal command)',
  'timed-out': () => 'cancelled by the host: nobody answered in time',
  shutdown: () => 'cancelled by the host as it shut down',
  refused: () => 'refused by the host: it could not be shown as asked',
  withdrawn: () => 'withdrawn by the server',
};

function knownPhrase(entry: ActivityEntry): string | undefined {
  const decision = entry.decision;
  if (entry.event === 'launch') return 'held by the launch gate';
  if (decision === undefined) return undefined;
  switch (entry.event) {
    case 'call':
      return isOneOf(CALL_DECISIONS, decision) ? CALL_TEXT[decision](entry) : undefined;
    case 'trust':
      return isOneOf(TRUST_DECISIONS, decision) ? TRUST_TEXT[decision](entry) : undefined;
    case 'policy':
      return isOneOf(POLICY_DECISIONS, decision) ? POLICY_TEXT[decision](entry) : undefined;
    case 'question':
      return isOneOf(QUESTION_DECISIONS, decision) ? QUESTION_TEXT[decision](entry) : undefined;
  }
}

/**
 * The decision and who made it, as one phrase for the CLI's table and the activity view:
 * "allowed by policy (rule files__*)", "approved by you on the approval card", "held by the
 * launch gate". A decision this version does not know reads as the word and its decider.
 */
export function describeDecision(entry: ActivityEntry): string {
  const known = knownPhrase(entry);
  if (known !== undefined) return known;
  const { decision, by } = entry;
  if (decision === undefined) return by === undefined ? '' : `by ${by}`;
  return by === undefined ? decision : `${decision} (by ${by})`;
}
