import { describe, expect, it, test } from 'vitest';
import toolsFixture from '../../../protocol/fixtures/tools-list.json';
import { requestMethods } from '../../../protocol/methods';
import type { ToolPolicyState } from '../../../protocol/tools';
import {
  annotationTags,
  describePolicy,
  isPolicyChoice,
  policyParam,
  policySelectValue,
  toolRows,
} from './tool-view';

// The dangerous direction is a tool that looks tighter than it is (a suspended or allowed tool
// shown as "ask"), or a server's annotation shown as a fact rather than a claim.

const { tools } = requestMethods['tools/list'].result.parse(toolsFixture.result);

describe('policy', () => {
  test.each<[ToolPolicyState, string, string]>([
    ['allow', 'allow', 'allow'],
    ['ask', 'ask', 'ask'],
    ['deny', 'deny', 'deny'],
    ['suspended', 'suspended: definition changed', 'allow'],
  ])('%s', (policy, label, select) => {
    expect(describePolicy(policy)).toBe(label);
    expect(policySelectValue(policy)).toBe(select);
  });

  it('maps the select to policy/set params: default removes the rule', () => {
    expect(policyParam('default')).toBeNull();
    expect(policyParam('deny')).toBe('deny');
    expect(isPolicyChoice('allow')).toBe(true);
    expect(isPolicyChoice('suspended')).toBe(false);
  });
});

describe('annotations', () => {
  it('names only the hints a server set', () => {
    expect(annotationTags(undefined)).toEqual([]);
    expect(annotationTags({ title: 'x' })).toEqual([]);
    expect(
      annotationTags({
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      }),
    ).toEqual(['writes', 'destructive', 'idempotent', 'closed world']);
  });
});

describe('rows', () => {
  it('derives the fixture rows, largest first', () => {
    const rows = toolRows(tools);
    expect(rows.map((row) => [row.exposedName, row.rawName, row.policyLabel, row.tokens])).toEqual(
      [...tools]
        .sort((a, b) => b.tokens - a.tokens || a.name.localeCompare(b.name))
        .map((tool) => [tool.name, tool.tool, describePolicy(tool.policy), tool.tokens]),
    );
    const deleteRow = rows.find((row) => row.rawName === 'delete_customer');
    expect(deleteRow?.tags).toEqual(['destructive']);
    expect(deleteRow?.title).toBe('Delete customer');
  });
});
