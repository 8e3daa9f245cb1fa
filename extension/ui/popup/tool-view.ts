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
  };
}

/** A server's tools, largest token cost first (what a budget would cut first), then by name. */
export function toolRows(tools: readonly ExposedTool[]): ToolRowView[] {
  return [...tools]
    .sort((a, b) => b.tokens - a.tokens || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map(toolRow);
}
