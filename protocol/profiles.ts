import { z } from 'zod';
import { mostSpecificMatch, parseMatchPattern } from './match-pattern';

/**
 * Per-site workspace profiles (design D10) and per-profile token budgets (D11): the schema the
 * host stores in config.json and both sides send, URL match patterns, and which profile a tab's
 * URL selects. Pure and shared: the extension resolves the active tab to a profile id; the host
 * stores and enforces the profile (a tool it hides does not exist for that call).
 *
 * Error direction for matching: a pattern that matches a URL it should not hands a page the tools
 * of a profile meant for another site. Every doubt here resolves towards "no match".
 */

export const DEFAULT_PROFILE_ID = 'default';
export const MAX_PROFILES = 64;
export const MAX_PATTERNS_PER_PROFILE = 64;
export const MAX_PROFILE_NAME_CHARS = 100;
export const MAX_PROFILE_GLOBS = 256;
export const MAX_TOKEN_BUDGET = 10_000_000;
/** Longest URL `profiles/resolve` takes (browsers allow more; no site needs more to be matched). */
export const MAX_RESOLVE_URL_CHARS = 8_192;

/**
 * What a profile lets through, besides its servers and tool filters:
 * - `read-only`: only tools whose server claims `readOnlyHint: true`, and every call is asked
 *   (the claim is the server's word, which grants nothing: design D8), even over an allow rule;
 * - `standard`: every tool except those declaring `destructiveHint: true` (or a malformed hint);
 * - `full`: every tool. Policy still decides each call: `full` grants nothing by itself.
 */
export const ProfileModeSchema = z.enum(['read-only', 'standard', 'full'], {
  error: 'mode must be "read-only", "standard" or "full"',
});
export type ProfileMode = z.infer<typeof ProfileModeSchema>;

/**
 * Tool search mode (docs/decisions/0027): instead of every tool, the model is offered the
 * `search_tools` meta-tool and the profile's `pinnedTools`, and finds the rest by query.
 * - `auto` (also when absent): on while the profile's listing is over its `tokenBudget`;
 * - `on`: always, budget or not;
 * - `off`: never (the whole listing is sent, over budget or not).
 */
export const ToolSearchSettingSchema = z.enum(['auto', 'on', 'off'], {
  error: 'toolSearch must be "auto", "on" or "off"',
});
export type ToolSearchSetting = z.infer<typeof ToolSearchSettingSchema>;

/** A profile id: a lower-case slug, `github`, `webshop-dev`. `default` is the default profile. */
export const ProfileIdSchema = z
  .string()
  .regex(
    /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/,
    "a profile id is 1-64 lower-case letters, digits and '-', not starting or ending with '-', e.g. \"github\"",
  );

// Control, format (bidi, zero-width), unassigned and separator characters: a name is shown in
// the side panel, where an invisible character could make two profiles look alike.
const INVISIBLE = /[\p{C}\p{Zl}\p{Zp}]/u;

export const ProfileNameSchema = z
  .string()
  .min(1, 'a profile name cannot be empty')
  .max(MAX_PROFILE_NAME_CHARS, `a profile name has at most ${MAX_PROFILE_NAME_CHARS} characters`)
  .refine((name) => !INVISIBLE.test(name), 'a profile name cannot contain invisible characters');

/** A glob over exposed tool names (`github__*`), in the alphabet of `toolPolicy` globs. */
export const ToolPatternSchema = z
  .string()
  .min(1, 'a tool pattern cannot be empty')
  .max(256, 'a tool pattern has at most 256 characters')
  .regex(
    /^[A-Za-z0-9_*?-]+$/,
    "a tool pattern has only letters, digits, '_', '-', '*' and '?', e.g. \"github__list_*\"",
  );

export const MatchPatternSchema = z.string().superRefine((pattern, ctx) => {
  const parsed = parseMatchPattern(pattern);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.problem });
});

/** An absolute folder on any OS: `/home/alex/src/shop`, `C:\src\shop`, `\\server\share\shop`. */
export function isAbsoluteFolder(folder: string): boolean {
  if (folder.includes('\u0000')) return false;
  return /^\//.test(folder) || /^[A-Za-z]:[\\/]/.test(folder) || /^[\\/]{2}[^\\/]/.test(folder);
}

const WorkspaceFolderSchema = z
  .string()
  .min(1)
  .max(4_096, 'a workspace folder has at most 4096 characters')
  .refine(
    isAbsoluteFolder,
    'the workspace folder must be an absolute path, e.g. "/home/me/src/shop"',
  );

const PolicyOverridesSchema = z
  .unknown()
  // zod's record drops a "__proto__" key without a word, and a dropped deny rule would loosen.
  .superRefine((value, ctx) => {
    if (typeof value === 'object' && value !== null && Object.hasOwn(value, '__proto__')) {
      ctx.addIssue({ code: 'custom', message: '"__proto__" cannot be a tool pattern' });
    }
  })
  .pipe(z.record(ToolPatternSchema, z.enum(['allow', 'ask', 'deny'])));

/**
 * One profile (design D10). Unknown keys are refused: a misspelt `exclude` must not quietly
 * expose what it was meant to hide.
 */
export const ProfileSchema = z
  .strictObject({
    id: ProfileIdSchema,
    name: ProfileNameSchema,
    /** URL match patterns that select this profile; the `default` profile has none. */
    match: z
      .array(MatchPatternSchema)
      .max(MAX_PATTERNS_PER_PROFILE, `a profile has at most ${MAX_PATTERNS_PER_PROFILE} patterns`),
    /** Configured server names this profile enables; omitted: every server (see the host). */
    servers: z.array(z.string().min(1).max(256)).max(256).optional(),
    /** Only tools whose exposed name matches one of these globs; omitted: every tool. */
    include: z.array(ToolPatternSchema).max(MAX_PROFILE_GLOBS).optional(),
    /** Tools whose exposed name matches one of these globs are hidden (wins over `include`). */
    exclude: z.array(ToolPatternSchema).max(MAX_PROFILE_GLOBS).optional(),
    mode: ProfileModeSchema,
    /**
     * Policy rules that apply under this profile, together with `toolPolicy` and with the same
     * precedence (deny, then ask, then allow): they tighten freely, and an `allow` loosens only a
     * tool no `toolPolicy` rule asks about or denies (docs/decisions/0010).
     */
    policy: PolicyOverridesSchema.optional(),
    /** A folder whose `.mcp.json` and `.vscode/mcp.json` join the configuration; MCP roots. */
    workspace: WorkspaceFolderSchema.optional(),
    /** Most tokens the model-facing tool listing of this profile should cost. */
    tokenBudget: z.number().int().positive().max(MAX_TOKEN_BUDGET).optional(),
    /** When tool search mode is on; absent: `auto`. */
    toolSearch: ToolSearchSettingSchema.optional(),
    /**
     * Globs over exposed names of tools offered in full in tool search mode (not to be confused
     * with the definition pins of design D7). They grant nothing: policy decides each call.
     */
    pinnedTools: z.array(ToolPatternSchema).max(MAX_PROFILE_GLOBS).optional(),
  })
  .superRefine((profile, ctx) => {
    if (profile.id === DEFAULT_PROFILE_ID && profile.match.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['match'],
        message:
          'the default profile applies to every site no other profile matches: leave "match" empty',
      });
    }
  });
export type Profile = z.infer<typeof ProfileSchema>;

/**
 * The default profile when the user has not written one: every server, every tool, the policy
 * unchanged. That is what the host did before profiles existed; a stricter default is one
 * `profiles/set` with id `default` away. A fresh object each time: callers may keep it.
 */
export function builtinDefaultProfile(): Profile {
  return { id: DEFAULT_PROFILE_ID, name: 'Default', match: [], mode: 'full' };
}

/** One way to get a profile's tool listing under its token budget. */
export const BudgetSuggestionSchema = z.object({
  /** `server`: take the server out of the profile's `servers`; `tool`: add it to `exclude`. */
  kind: z.enum(['server', 'tool']),
  server: z.string(),
  /** For `tool`: the exposed name. */
  tool: z.string().optional(),
  /** Tokens the listing shrinks by. */
  saves: z.number().int().nonnegative(),
});
export type BudgetSuggestion = z.infer<typeof BudgetSuggestionSchema>;

export const TokenBudgetSchema = z.object({
  limit: z.number().int().positive(),
  /** Tokens of the profile's model-facing listing now. */
  used: z.number().int().nonnegative(),
  /** `limit - used`: negative when over. */
  headroom: z.number().int(),
  over: z.boolean(),
  /** When over: the fewest removals found that get under the limit. Empty otherwise. */
  suggestions: z.array(BudgetSuggestionSchema),
});
export type TokenBudget = z.infer<typeof TokenBudgetSchema>;

/**
 * Present in `tools/list` while tool search mode is on for the profile (docs/decisions/0027): the
 * listing still holds every tool (the extension searches it), but the model is offered only
 * `search_tools` and the `pinned` tools.
 */
export const ToolSearchStateSchema = z.object({
  /** `over-budget`: `toolSearch` is `auto` and the listing is over the budget; `setting`: `on`. */
  reason: z.enum(['over-budget', 'setting']),
  /** Exposed names of the listed tools the profile's `pinnedTools` match, sorted. */
  pinned: z.array(z.string()),
  /** Tokens of what the model is offered instead: `search_tools` and the pinned tools. */
  tokens: z.number().int().nonnegative(),
});
export type ToolSearchState = z.infer<typeof ToolSearchStateSchema>;

// ---------------------------------------------------------------------------------------------
// Resolution.

/** The default profile of a list: the user's `default` entry if there is one, else the built-in. */
export function defaultProfileOf(profiles: readonly Profile[]): Profile {
  return profiles.find((p) => p.id === DEFAULT_PROFILE_ID) ?? builtinDefaultProfile();
}

export interface ProfileResolution {
  readonly profile: Profile;
  /** The pattern that selected it; null when no pattern matched (the default profile). */
  readonly matchedPattern: string | null;
}

/**
 * The profile for a tab's URL: the one with the most specific matching pattern
 * (patternSpecificity); on a tie the profile listed first, then its pattern listed first. No
 * match, a URL that does not parse, or a scheme no pattern names (`chrome-extension:`, `about:`,
 * `data:`): the default profile. The `default` entry's patterns, if any, are never used.
 */
export function resolveProfile(profiles: readonly Profile[], url: string): ProfileResolution {
  const candidates = profiles
    .filter((profile) => profile.id !== DEFAULT_PROFILE_ID)
    .flatMap((profile) => profile.match.map((pattern) => ({ pattern, value: profile })));
  const best = mostSpecificMatch(url, candidates);
  return best === undefined
    ? { profile: defaultProfileOf(profiles), matchedPattern: null }
    : { profile: best.value, matchedPattern: best.pattern };
}
