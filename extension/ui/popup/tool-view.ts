import type { ExposedTool, ToolAnnotations, ToolPolicyState } from '../../../protocol/tools';
import { assertNever } from '../../../protocol/guards';

/**
 * One tool row in an expanded server (issue 5): exposed and raw names, the host's effective policy
 * and what the policy select offers, the server's annotations (claims, not facts: design D8) and
 * the token cost. Pure.
 */

/** What the policy select can send: a rule, or `default` to remove the tool's own rule. */
export type PolicyChoice = 'default' | 'allow' | 'ask' | 'deny';

export const POLICY_CHOICES: readonly { readonly value: PolicyChoice; readonly label: string }[] = [
  { value: 'default', label: 'Default' },
  { value: 'allow', label: 'Allow' },
  { value: 'ask', label: 'Ask' },
  { value: 'deny', label: 'Deny' },
];

export function isPolicyChoice(value: string): value is PolicyChoice {
  return POLICY_CHOICES.some((choice) => choice.value === value);
}

/** The `policy` param of `policy/set` for a choice (`null` removes the rule). */
export function policyParam(choice: PolicyChoice): 'allow' | 'ask' | 'deny' | null {
  return choice === 'default' ? null : choice;
}

/** The host's effective policy in words. */
export function describePolicy(policy: ToolPolicyState): string {
  switch (policy) {
    case 'allow':
      return 'allow';
    case 'ask':
      return 'ask';
    case 'deny':
      return 'deny';
    case 'suspended':
      return 'suspended: definition changed';
    default:
      return assertNever(policy, 'policy');
  }
}

/**
 * The select's current value. A suspended tool had an allow rule whose pinned definition no
 * longer matches (D7): the rule is still `allow`, but it asks until re-approved.
 */
export function policySelectValue(policy: ToolPolicyState): PolicyChoice {
  return policy === 'suspended' ? 'allow' : policy;
}

/** The annotations a server claims, as short tags ("read-only", "destructive", …). */
export function annotationTags(annotations: ToolAnnotations | undefined): string[] {
  if (annotations === undefined) return [];
  const tags: string[] = [];
  const flag = (value: boolean | undefined, yes: string, no: string) => {
    if (value === true) tags.push(yes);
    else if (value === false) tags.push(no);
  };
  flag(annotations.readOnlyHint, 'read-only', 'writes');
  flag(annotations.destructiveHint, 'destructive', 'not destructive');
  flag(annotations.idempotentHint, 'idempotent', 'not idempotent');
  flag(annotations.openWorldHint, 'open world', 'closed world');
  return tags;
}

export interface ToolRowView {
  readonly exposedName: string;
  readonly rawName: string;
  readonly title: string | null;
  readonly description: string;
  readonly policy: ToolPolicyState;
  readonly policyLabel: string;
  readonly selectValue: PolicyChoice;
  readonly tags: readonly string[];
  readonly tokens: number;
  /** The server claims it only reads, and does not also claim to be destructive. */
  readonly readOnly: boolean;
}

export function toolRow(tool: ExposedTool): ToolRowView {
  return {
    exposedName: tool.name,
    rawName: tool.tool,
    title: tool.title ?? tool.annotations?.title ?? null,
    description: tool.description,
    policy: tool.policy,
    policyLabel: describePolicy(tool.policy),
    selectValue: policySelectValue(tool.policy),
    tags: annotationTags(tool.annotations),
    tokens: tool.tokens,
    // A claim, not a fact (D8): it picks what a bulk "allow" covers, which the user chose; a tool
    // that also claims to be destructive (malformed, or contradictory) is never among them.
    readOnly: tool.annotations?.readOnlyHint === true && tool.annotations.destructiveHint !== true,
  };
}

/** A server's tools, largest token cost first (what a budget would cut first), then by name. */
export function toolRows(tools: readonly ExposedTool[]): ToolRowView[] {
  return [...tools]
    .sort((a, b) => b.tokens - a.tokens || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(toolRow);
}

/**
 * The rows whose exposed or raw name, title or description contain every word of `query`, case
 * ignored (issue 14: a server with 14 tools is a long list). An empty query keeps them all.
 */
export function filterTools(rows: readonly ToolRowView[], query: string): ToolRowView[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  if (words.length === 0) return [...rows];
  return rows.filter((row) => {
    const text = [row.exposedName, row.rawName, row.title ?? '', row.description]
      .join('\n')
      .toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

/** The bulk actions over the filtered tools. */
export type BulkAction = 'allow-read-only' | 'ask-all';

export interface BulkButton {
  readonly action: BulkAction;
  readonly label: string;
  /** The `policy/setMany` rules it sends; empty when there is nothing to change. */
  readonly rules: readonly { readonly tool: string; readonly policy: 'allow' | 'ask' }[];
}

/**
 * What each bulk action would change among `rows` (the filtered ones): only tools whose effective
 * policy is not already the target, so a second click sends nothing and the button says so. A
 * suspended tool (its definition changed, D7) is left to be re-allowed one by one.
 * "Allow" covers the tools that claim to only read; the host still asks for one it finds
 * destructive (D8).
 */
export function bulkButtons(rows: readonly ToolRowView[]): BulkButton[] {
  const allow = rows.filter((r) => r.readOnly && r.selectValue !== 'allow');
  const ask = rows.filter((r) => r.selectValue !== 'ask');
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  return [
    {
      action: 'allow-read-only',
      label: `Allow every read-only tool (${count(allow.length, 'change')})`,
      rules: allow.map((r) => ({ tool: r.exposedName, policy: 'allow' })),
    },
    {
      action: 'ask-all',
      label: `Ask for all (${count(ask.length, 'change')})`,
      rules: ask.map((r) => ({ tool: r.exposedName, policy: 'ask' })),
    },
  ];
}
