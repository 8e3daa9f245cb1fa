import {
  DEFAULT_PROFILE_ID,
  ProfileSchema,
  type Profile,
  type ProfileMode,
  type ToolSearchSetting,
} from '../../../protocol/profiles';

/**
 * The options page's profile editor (design D10, issue 5). Pure: a profile becomes text fields
 * (patterns and globs one per line), the fields become a profile checked with the same
 * ProfileSchema the host enforces, and each problem lands next to its field, naming the line.
 */

export const PROFILE_MODES: readonly {
  readonly mode: ProfileMode;
  readonly label: string;
  readonly help: string;
}[] = [
  {
    mode: 'read-only',
    label: 'Read-only',
    help: 'Only tools that say they are read-only, and every call is asked.',
  },
  {
    mode: 'standard',
    label: 'Standard',
    help: 'Every tool except those that say they are destructive.',
  },
  { mode: 'full', label: 'Full', help: 'Every tool; policy still decides each call.' },
];

export function isProfileMode(value: string): value is ProfileMode {
  return PROFILE_MODES.some((entry) => entry.mode === value);
}

/** Tool search mode's settings (docs/decisions/0027), as the editor offers them. */
export const TOOL_SEARCH_SETTINGS: readonly {
  readonly setting: ToolSearchSetting;
  readonly label: string;
  readonly help: string;
}[] = [
  {
    setting: 'auto',
    label: 'When over budget',
    help: 'Over the token budget, the model gets a search tool and the pinned tools, and finds the rest by search.',
  },
  {
    setting: 'on',
    label: 'Always',
    help: 'The model always gets the search tool and the pinned tools, and finds the rest by search.',
  },
  { setting: 'off', label: 'Never', help: 'Every tool is sent on every turn, over budget or not.' },
];

export function isToolSearchSetting(value: string): value is ToolSearchSetting {
  return TOOL_SEARCH_SETTINGS.some((entry) => entry.setting === value);
}

export interface ProfileFields {
  readonly id: string;
  readonly name: string;
  /** URL match patterns, one per line. */
  readonly match: string;
  /** True: every configured server, including ones added later. */
  readonly allServers: boolean;
  /** The servers checked when `allServers` is false. */
  readonly servers: readonly string[];
  /** Tool globs, one per line. */
  readonly include: string;
  readonly exclude: string;
  readonly mode: ProfileMode;
  readonly workspace: string;
  /** Token budget; empty for none. */
  readonly tokenBudget: string;
  /** Tool search mode (docs/decisions/0027); `auto` is written as no key. */
  readonly toolSearch: ToolSearchSetting;
  /** Globs of tools offered in full in tool search mode, one per line. */
  readonly pinnedTools: string;
  /** Kept as they were: the editor does not show per-profile policy rules. */
  readonly policy: Profile['policy'];
}

export type ProfileField = Exclude<keyof ProfileFields, 'allServers' | 'policy'>;
export type ProfileFieldErrors = Partial<Record<ProfileField, string>>;

export const NEW_PROFILE_FIELDS: ProfileFields = {
  id: '',
  name: '',
  match: '',
  allServers: true,
  servers: [],
  include: '',
  exclude: '',
  mode: 'standard',
  workspace: '',
  tokenBudget: '',
  toolSearch: 'auto',
  pinnedTools: '',
  policy: undefined,
};

export function fieldsFromProfile(profile: Profile): ProfileFields {
  return {
    id: profile.id,
    name: profile.name,
    match: profile.match.join('\n'),
    allServers: profile.servers === undefined,
    servers: profile.servers ?? [],
    include: (profile.include ?? []).join('\n'),
    exclude: (profile.exclude ?? []).join('\n'),
    mode: profile.mode,
    workspace: profile.workspace ?? '',
    tokenBudget: profile.tokenBudget === undefined ? '' : String(profile.tokenBudget),
    toolSearch: profile.toolSearch ?? 'auto',
    pinnedTools: (profile.pinnedTools ?? []).join('\n'),
    policy: profile.policy,
  };
}

/** Non-empty trimmed lines. */
export function lines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * An id for a new profile from its name: a lower-case slug (`GitHub work` -> `github-work`),
 * made unique among `taken` with a counter. Never `default` unless asked for by name.
 */
export function profileIdFor(name: string, taken: readonly string[]): string {
  const slug =
    name
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 56)
      .replace(/-+$/, '') || 'profile';
  if (!taken.includes(slug)) return slug;
  for (let n = 2; ; n += 1) {
    const candidate = `${slug}-${n}`;
    if (!taken.includes(candidate)) return candidate;
  }
}

export type ProfileFormResult =
  | { readonly ok: true; readonly profile: Profile }
  | { readonly ok: false; readonly errors: ProfileFieldErrors };

const PROFILE_FIELDS: readonly ProfileField[] = [
  'id',
  'name',
  'match',
  'servers',
  'include',
  'exclude',
  'mode',
  'workspace',
  'tokenBudget',
  'toolSearch',
  'pinnedTools',
];

/** The field a schema issue belongs to; one about the whole profile goes next to the name. */
function fieldOf(key: PropertyKey | undefined): ProfileField {
  return PROFILE_FIELDS.find((field) => field === key) ?? 'name';
}

/** The fields as a profile for `profiles/set`, or the schema's errors per field. */
export function parseProfileForm(fields: ProfileFields): ProfileFormResult {
  const errors: ProfileFieldErrors = {};
  const budgetText = fields.tokenBudget.trim();
  let tokenBudget: number | undefined;
  if (budgetText !== '') {
    const digits = budgetText.replace(/[,_\s]/g, '');
    if (!/^\d+$/.test(digits)) errors.tokenBudget = 'Enter a whole number of tokens, e.g. 8000.';
    else tokenBudget = Number(digits);
  }
  const include = lines(fields.include);
  const exclude = lines(fields.exclude);
  const workspace = fields.workspace.trim();
  const pinnedTools = lines(fields.pinnedTools);
  const candidate = {
    id: fields.id.trim(),
    name: fields.name.trim(),
    match: lines(fields.match),
    ...(fields.allServers ? {} : { servers: [...fields.servers] }),
    ...(include.length > 0 ? { include } : {}),
    ...(exclude.length > 0 ? { exclude } : {}),
    mode: fields.mode,
    ...(fields.policy !== undefined ? { policy: fields.policy } : {}),
    ...(workspace !== '' ? { workspace } : {}),
    ...(tokenBudget !== undefined ? { tokenBudget } : {}),
    ...(fields.toolSearch === 'auto' ? {} : { toolSearch: fields.toolSearch }),
    ...(pinnedTools.length > 0 ? { pinnedTools } : {}),
  };
  const parsed = ProfileSchema.safeParse(candidate);
  for (const issue of parsed.error?.issues ?? []) {
    const [key, index] = issue.path;
    const field = fieldOf(key);
    const where = typeof index === 'number' && field !== 'servers' ? `Line ${index + 1}: ` : '';
    errors[field] ??= `${where}${issue.message}`;
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, profile: parsed.data };
}

/** The default profile's patterns are never used; the editor hides the field for it. */
export function isDefaultProfile(fields: Pick<ProfileFields, 'id'>): boolean {
  return fields.id === DEFAULT_PROFILE_ID;
}

/** A one-line summary for the profile list: "github.com/* · 2 servers · standard · 8,000 tokens". */
export function profileSummary(profile: Profile): string {
  const parts = [
    profile.id === DEFAULT_PROFILE_ID
      ? 'every site no other profile matches'
      : profile.match.length === 0
        ? 'no sites'
        : profile.match.join(', '),
    profile.servers === undefined
      ? 'all servers'
      : `${profile.servers.length} ${profile.servers.length === 1 ? 'server' : 'servers'}`,
    profile.mode,
  ];
  if (profile.tokenBudget !== undefined) {
    parts.push(`budget ${profile.tokenBudget.toLocaleString('en-US')} tokens`);
  }
  if (profile.toolSearch === 'on') parts.push('tool search on');
  if (profile.toolSearch === 'off') parts.push('tool search off');
  return parts.join(' · ');
}
