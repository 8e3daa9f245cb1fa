import { describe, expect, test } from 'vitest';
import type { Hint } from '../shared/tool-definition';
import {
  ToolPolicySchema,
  decideToolPolicy,
  parseToolPolicy,
  type PolicyDecision,
  type PolicyValue,
  type PolicyWarning,
  type ToolPolicyInput,
  type ToolPolicyRules,
} from './tool-policy';

// ============================================================================================
// A missed prompt (allow where ask was due) is the dangerous direction; an extra prompt only
// costs a click. Every row below that expects `allow` is a promise that the user asked for it.
// ============================================================================================

const TOOL = 'gh__create_issue';
const GLOB = 'gh__*';

type RuleKind = 'none' | PolicyValue;
type Pin = ToolPolicyInput['pin'];

const RULE_KINDS: readonly RuleKind[] = ['none', 'allow', 'ask', 'deny'];
const HINTS: readonly Hint[] = [true, false, undefined, 'malformed'];
const PINS: readonly Pin[] = ['unpinned', 'match', 'changed'];
const AUTOPILOT: readonly boolean[] = [false, true];

function rulesFor(kind: RuleKind): ToolPolicyRules {
  return kind === 'none' ? [] : [{ glob: GLOB, value: kind }];
}

function input(
  kind: RuleKind,
  destructiveHint: Hint,
  readOnlyHint: Hint,
  pin: Pin,
  autopilot: boolean,
): ToolPolicyInput {
  return {
    exposedName: TOOL,
    rules: rulesFor(kind),
    hints: { destructiveHint, readOnlyHint },
    pin,
    autopilot,
  };
}

/**
 * The oracle, written from design D8 sentence by sentence rather than from the code. `readOnly`
 * and `autopilot` are taken and ignored on purpose: neither may ever change an answer.
 */
function expected(
  kind: RuleKind,
  destructive: Hint,
  _readOnly: Hint,
  pin: Pin,
  _autopilot: boolean,
): PolicyDecision {
  // "deny wins"
  if (kind === 'deny') return { kind: 'deny', rule: GLOB };
  // "an explicit destructiveHint: true (or a malformed one) forces a prompt"
  const claimsDestructive = destructive === true;
  const unreadable = destructive === 'malformed';
  // D7: "a changed definition suspends the tool's allow-list entry"
  const changed = pin === 'changed';
  const warnings: PolicyWarning[] = [
    ...(claimsDestructive ? (['destructive'] as const) : []),
    ...(unreadable ? (['destructive-malformed'] as const) : []),
    ...(changed ? (['definition-changed'] as const) : []),
  ];
  // "Only the user's allow-list grants auto-run", and only when nothing above objects.
  const runsUnasked = kind === 'allow' && !claimsDestructive && !unreadable && !changed;
  if (runsUnasked) return { kind: 'allow', rule: GLOB };
  // "default ask"
  return { kind: 'ask', warnings, rule: kind === 'none' ? null : GLOB };
}

const CROSS_PRODUCT = RULE_KINDS.flatMap((kind) =>
  HINTS.flatMap((destructive) =>
    HINTS.flatMap((readOnly) =>
      PINS.flatMap((pin) =>
        AUTOPILOT.map((autopilot) => [kind, destructive, readOnly, pin, autopilot] as const),
      ),
    ),
  ),
);

describe('decideToolPolicy: the whole truth table', () => {
  test('covers every combination', () => {
    expect(CROSS_PRODUCT).toHaveLength(4 * 4 * 4 * 3 * 2);
  });

  test.each(CROSS_PRODUCT)(
    'rule %s, destructive %s, readOnly %s, pin %s, autopilot %s',
    (kind, destructive, readOnly, pin, autopilot) => {
      expect(decideToolPolicy(input(kind, destructive, readOnly, pin, autopilot))).toEqual(
        expected(kind, destructive, readOnly, pin, autopilot),
      );
    },
  );

  test('allow happens in exactly the cases the user granted and nothing objects', () => {
    const allowed = CROSS_PRODUCT.filter((row) => decideToolPolicy(input(...row)).kind === 'allow');
    // rule allow x destructive false/absent x any readOnly x pin unpinned/match x any autopilot
    expect(allowed).toHaveLength(1 * 2 * 4 * 2 * 2);
    for (const [kind, destructive, , pin] of allowed) {
      expect(kind).toBe('allow');
      expect([false, undefined]).toContain(destructive);
      expect(pin).not.toBe('changed');
    }
  });

  test('autopilot and readOnlyHint never change a decision', () => {
    for (const [kind, destructive, , pin] of CROSS_PRODUCT) {
      const baseline = decideToolPolicy(input(kind, destructive, undefined, pin, false));
      for (const readOnly of HINTS) {
        for (const autopilot of AUTOPILOT) {
          expect(decideToolPolicy(input(kind, destructive, readOnly, pin, autopilot))).toEqual(
            baseline,
          );
        }
      }
    }
  });
});

describe('decideToolPolicy: hand-written rows', () => {
  test.each<[string, ToolPolicyInput, PolicyDecision]>([
    // G3: nothing in the allow-list, autopilot on, a tool that swears it is read-only: still ask.
    [
      'autopilot + readOnly claim grant nothing',
      input('none', false, true, 'match', true),
      { kind: 'ask', warnings: [], rule: null },
    ],
    // The ordinary allow-list case.
    ['plain allow', input('allow', false, true, 'match', false), { kind: 'allow', rule: GLOB }],
    // First sight of an allow-listed tool: allowed, the host pins it now (D7).
    [
      'allow, not yet pinned',
      input('allow', undefined, undefined, 'unpinned', false),
      { kind: 'allow', rule: GLOB },
    ],
    // Absent destructiveHint: the spec defaults it to true, but a default is not a claim.
    [
      'allow, destructiveHint absent',
      input('allow', undefined, false, 'match', false),
      { kind: 'allow', rule: GLOB },
    ],
    // A server declaring itself destructive gets a prompt even though the user allowed it.
    [
      'allow overridden by destructiveHint: true',
      input('allow', true, undefined, 'match', false),
      { kind: 'ask', warnings: ['destructive'], rule: GLOB },
    ],
    // "destructiveHint": "yes" — unreadable, so treated as the worst case.
    [
      'allow overridden by malformed destructiveHint',
      input('allow', 'malformed', undefined, 'match', false),
      { kind: 'ask', warnings: ['destructive-malformed'], rule: GLOB },
    ],
    // readOnlyHint: true does not cancel destructiveHint: true; tightening wins.
    [
      'contradictory hints',
      input('allow', true, true, 'match', false),
      { kind: 'ask', warnings: ['destructive'], rule: GLOB },
    ],
    // A malformed readOnlyHint is no reason to prompt and no reason not to.
    [
      'malformed readOnlyHint changes nothing',
      input('allow', false, 'malformed', 'match', false),
      { kind: 'allow', rule: GLOB },
    ],
    // Rug pull: the server rewrote the tool after the user allowed it.
    [
      'changed definition suspends allow',
      input('allow', false, true, 'changed', true),
      { kind: 'ask', warnings: ['definition-changed'], rule: GLOB },
    ],
    // Both at once: the card says both.
    [
      'destructive and changed',
      input('allow', true, undefined, 'changed', false),
      { kind: 'ask', warnings: ['destructive', 'definition-changed'], rule: GLOB },
    ],
    // Warnings ride on a default ask too, so the card can show them.
    [
      'default ask still carries warnings',
      input('none', 'malformed', undefined, 'changed', false),
      { kind: 'ask', warnings: ['destructive-malformed', 'definition-changed'], rule: null },
    ],
    // An explicit ask is an ask, whatever the hints.
    [
      'explicit ask, harmless tool',
      input('ask', false, true, 'match', true),
      { kind: 'ask', warnings: [], rule: GLOB },
    ],
    // Deny does not care about hints, pins or autopilot.
    ['deny', input('deny', false, true, 'match', true), { kind: 'deny', rule: GLOB }],
    [
      'deny, destructive',
      input('deny', true, undefined, 'changed', false),
      { kind: 'deny', rule: GLOB },
    ],
    // A rule for another tool does not leak.
    [
      'allow for another tool',
      {
        ...input('none', false, true, 'match', true),
        rules: [{ glob: 'gh__list_*', value: 'allow' }],
      },
      { kind: 'ask', warnings: [], rule: null },
    ],
    // Case-sensitive: an allow written in other case does not match.
    [
      'case differs',
      {
        ...input('none', false, undefined, 'match', false),
        rules: [{ glob: 'GH__*', value: 'allow' }],
      },
      { kind: 'ask', warnings: [], rule: null },
    ],
    // A literal allow of exactly this tool.
    [
      'literal allow',
      {
        ...input('none', false, undefined, 'match', false),
        rules: [{ glob: TOOL, value: 'allow' }],
      },
      { kind: 'allow', rule: TOOL },
    ],
    // '?' matches exactly one character: gh__create_issue has 12 after the prefix.
    [
      'question marks',
      {
        ...input('none', false, undefined, 'match', false),
        rules: [{ glob: 'gh__????????????', value: 'allow' }],
      },
      { kind: 'allow', rule: 'gh__????????????' },
    ],
    [
      'question marks, one short',
      {
        ...input('none', false, undefined, 'match', false),
        rules: [{ glob: 'gh__???????????', value: 'allow' }],
      },
      { kind: 'ask', warnings: [], rule: null },
    ],
    // The policy speaks of exposed names only; a server prefix is part of the name.
    [
      'raw tool name is not the exposed name',
      {
        ...input('none', false, undefined, 'match', false),
        rules: [{ glob: 'create_issue', value: 'allow' }],
      },
      { kind: 'ask', warnings: [], rule: null },
    ],
  ])('%s', (_label, given, want) => {
    expect(decideToolPolicy(given)).toEqual(want);
  });
});

describe('decideToolPolicy: several matching globs', () => {
  function decide(exposedName: string, policy: Record<string, PolicyValue>): PolicyDecision {
    const { rules, warnings } = parseToolPolicy(policy);
    expect(warnings.filter((w) => !w.includes('has no effect'))).toEqual([]);
    return decideToolPolicy({
      exposedName,
      rules,
      hints: { destructiveHint: false, readOnlyHint: true },
      pin: 'match',
      autopilot: false,
    });
  }

  test.each<[string, string, Record<string, PolicyValue>, PolicyDecision]>([
    // A broad allow with a carved-out deny: deny wins where it matches.
    [
      '* allow + merge deny',
      'github__merge_pr',
      { '*': 'allow', 'github__merge*': 'deny' },
      { kind: 'deny', rule: 'github__merge*' },
    ],
    [
      '* allow + merge deny, elsewhere',
      'github__list_prs',
      { '*': 'allow', 'github__merge*': 'deny' },
      { kind: 'allow', rule: '*' },
    ],
    // A server allowed, one tool of it kept behind a prompt.
    [
      'gh__* allow + delete ask',
      'gh__delete_repo',
      { 'gh__*': 'allow', gh__delete_repo: 'ask' },
      { kind: 'ask', warnings: [], rule: 'gh__delete_repo' },
    ],
    [
      'gh__* allow + delete ask, elsewhere',
      'gh__list_issues',
      { 'gh__*': 'allow', gh__delete_repo: 'ask' },
      { kind: 'allow', rule: 'gh__*' },
    ],
    // The safe reading: an ask beats an allow even when the allow is more specific.
    [
      'broad ask beats specific allow',
      'gh__list_issues',
      { 'gh__*': 'ask', gh__list_issues: 'allow' },
      { kind: 'ask', warnings: [], rule: 'gh__*' },
    ],
    // A broad deny beats a specific allow too.
    [
      'broad deny beats specific allow',
      'gh__list_issues',
      { '*': 'deny', gh__list_issues: 'allow' },
      { kind: 'deny', rule: '*' },
    ],
    // Deny beats ask.
    [
      'deny beats ask',
      'gh__delete_repo',
      { 'gh__delete*': 'ask', 'gh__*_repo': 'deny' },
      { kind: 'deny', rule: 'gh__*_repo' },
    ],
    // Among matching denies, the most specific is named.
    [
      'most specific deny named',
      'gh__delete_repo',
      { '*': 'deny', 'gh__*': 'deny', 'gh__delete*': 'deny' },
      { kind: 'deny', rule: 'gh__delete*' },
    ],
    // Among matching allows, the most specific is named; equal specificity: alphabetical.
    [
      'most specific allow named',
      'gh__list_issues',
      { '*': 'allow', 'gh__list*': 'allow', 'gh__*': 'allow' },
      { kind: 'allow', rule: 'gh__list*' },
    ],
    [
      'tie broken alphabetically',
      'gh__list_issues',
      { '*sues': 'allow', 'gh__*': 'allow' },
      { kind: 'allow', rule: '*sues' },
    ],
  ])('%s', (_label, name, policy, want) => {
    expect(decide(name, policy)).toEqual(want);
  });

  test('rule order does not matter', () => {
    const rules: ToolPolicyRules = [
      { glob: '*', value: 'allow' },
      { glob: 'gh__delete*', value: 'ask' },
      { glob: 'gh__delete_repo', value: 'deny' },
      { glob: 'gh__*', value: 'allow' },
    ];
    const base = {
      hints: { destructiveHint: undefined, readOnlyHint: undefined },
      pin: 'match',
      autopilot: false,
    } as const;
    for (const name of ['gh__delete_repo', 'gh__delete_branch', 'gh__list', 'other__x']) {
      const forward = decideToolPolicy({ ...base, exposedName: name, rules });
      const backward = decideToolPolicy({
        ...base,
        exposedName: name,
        rules: [...rules].reverse(),
      });
      expect(backward).toEqual(forward);
    }
  });
});

describe('parseToolPolicy', () => {
  test('no toolPolicy key: no rules, no warnings', () => {
    expect(parseToolPolicy(undefined)).toEqual({ rules: [], warnings: [] });
  });

  test('a valid policy, in file order', () => {
    expect(
      parseToolPolicy({ 'github__*': 'ask', github__list_issues: 'deny', '*': 'allow' }),
    ).toEqual({
      rules: [
        { glob: 'github__*', value: 'ask' },
        { glob: 'github__list_issues', value: 'deny' },
        { glob: '*', value: 'allow' },
      ],
      warnings: [],
    });
  });

  test.each([null, 'allow', 42, ['gh__*'], true])('not an object: %j', (raw) => {
    const result = parseToolPolicy(raw);
    expect(result.rules).toEqual([]);
    expect(result.warnings).toEqual([
      expect.stringMatching(/must be an object.*every MCP tool asks/),
    ]);
  });

  test('an unusable glob is dropped with a warning; the rest load', () => {
    const result = parseToolPolicy({ 'github.*': 'deny', '': 'allow', 'gh__*': 'allow' });
    expect(result.rules).toEqual([{ glob: 'gh__*', value: 'allow' }]);
    expect(result.warnings).toEqual([
      expect.stringMatching(/^toolPolicy "github\.\*": a tool pattern can only contain .*ignored$/),
      expect.stringMatching(
        /^toolPolicy "": a tool pattern cannot be empty; the entry is ignored$/,
      ),
    ]);
  });

  test.each([
    ['Deny', '"Deny"'],
    ['always', '"always"'],
    [true, 'a boolean'],
    [null, 'null'],
    [{ value: 'allow' }, 'an object'],
    [3, 'a number'],
    [['allow'], 'an array'],
  ])('a bad value %j counts as ask, never dropped', (value, shown) => {
    const result = parseToolPolicy({ '*': 'allow', gh__delete_repo: value });
    expect(result.rules).toEqual([
      { glob: '*', value: 'allow' },
      { glob: 'gh__delete_repo', value: 'ask' },
    ]);
    expect(result.warnings[0]).toBe(
      `toolPolicy "gh__delete_repo": ${shown} is not "allow", "ask" or "deny"; it counts as "ask" until fixed`,
    );
    // The point of counting it as ask: the broad allow does not swallow the typo'd entry.
    expect(
      decideToolPolicy({
        exposedName: 'gh__delete_repo',
        rules: result.rules,
        hints: { destructiveHint: false, readOnlyHint: undefined },
        pin: 'match',
        autopilot: true,
      }).kind,
    ).toBe('ask');
  });

  test('runs of * are collapsed', () => {
    expect(parseToolPolicy({ 'gh__***': 'allow' }).rules).toEqual([
      { glob: 'gh__*', value: 'allow' },
    ]);
  });

  test('a __proto__ key is an ordinary entry, not a prototype', () => {
    const result = parseToolPolicy(JSON.parse('{"__proto__": "allow", "gh__*": "deny"}'));
    expect(result.rules).toEqual([
      { glob: '__proto__', value: 'allow' },
      { glob: 'gh__*', value: 'deny' },
    ]);
  });

  test('long keys are shortened in warnings', () => {
    const key = 'x'.repeat(1_000) + '.';
    const [warning] = parseToolPolicy({ [key]: 'deny' }).warnings;
    expect(warning?.length).toBeLessThan(400);
  });

  test.each([
    [{ 'gh__*': 'ask', gh__list_issues: 'allow' }, 'gh__list_issues', 'gh__*'],
    [{ '*': 'deny', 'gh__list_*': 'allow' }, 'gh__list_*', '*'],
    [{ 'gh__*': 'ask', 'gh__list_?ssues': 'allow' }, 'gh__list_?ssues', 'gh__*'],
  ])('warns that an allow has no effect: %j', (policy, allow, cover) => {
    expect(parseToolPolicy(policy).warnings).toEqual([
      expect.stringContaining(`toolPolicy "${allow}": "allow" has no effect, because "${cover}"`),
    ]);
  });

  test.each([
    { 'gh__*': 'allow', gh__delete_repo: 'ask' },
    { '*': 'allow', 'github__merge*': 'deny' },
    // `gh__????` cannot cover `gh__*`: `?` does not absorb a `*`. No false alarm.
    { 'gh__????': 'ask', 'gh__*': 'allow' },
  ])('no shadow warning when the allow still applies somewhere: %j', (policy) => {
    expect(parseToolPolicy(policy).warnings).toEqual([]);
  });
});

describe('ToolPolicySchema (strict, for writers)', () => {
  test('accepts a valid policy', () => {
    expect(ToolPolicySchema.parse({ 'gh__*': 'allow', gh__delete_repo: 'deny' })).toEqual({
      'gh__*': 'allow',
      gh__delete_repo: 'deny',
    });
  });

  test.each([{ 'gh.*': 'allow' }, { 'gh__*': 'Allow' }, { '': 'ask' }, ['gh__*']])(
    'rejects %j',
    (policy) => {
      expect(ToolPolicySchema.safeParse(policy).success).toBe(false);
    },
  );
});
