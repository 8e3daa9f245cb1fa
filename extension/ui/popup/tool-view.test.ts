import { describe, expect, it, test } from 'vitest';
import toolsFixture from '../../../protocol/fixtures/tools-list.json';
import { requestMethods } from '../../../protocol/methods';
import type { ToolPolicyState } from '../../../protocol/tools';
import {
  annotationTags,
  bulkButtons,
  describePolicy,
  filterTools,
  isPolicyChoice,
  policyParam,
  policySelectValue,
  toolRow,
  toolRows,
} from './tool-view';
import type { ExposedTool } from '../../../protocol/tools';

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

function tool(name: string, extra: Partial<ExposedTool> = {}): ExposedTool {
  return {
    name: `mem__${name}`,
    server: 'mem',
    tool: name,
    description: `Does ${name}.`,
    inputSchema: { type: 'object' },
    policy: 'ask',
    tokens: 10,
    ...extra,
  };
}

describe('filterTools', () => {
  const rows = [
    tool('read_graph', { description: 'Read the whole knowledge graph.' }),
    tool('search_nodes', { title: 'Search' }),
    tool('delete_entities'),
  ].map(toolRow);
  test.each<[string, string[]]>([
    ['', ['mem__read_graph', 'mem__search_nodes', 'mem__delete_entities']],
    ['GRAPH', ['mem__read_graph']],
    ['knowledge whole', ['mem__read_graph']],
    ['  search ', ['mem__search_nodes']],
    ['nothing-like-it', []],
  ])('%j', (query, names) => {
    expect(filterTools(rows, query).map((r) => r.exposedName)).toEqual(names);
  });
});

// Dangerous direction: a bulk allow that covers a tool claiming to be destructive, or one that
// does not claim to only read.
describe('bulkButtons', () => {
  const rows = [
    tool('read', { annotations: { readOnlyHint: true } }),
    tool('read_allowed', { annotations: { readOnlyHint: true }, policy: 'allow' }),
    tool('contradictory', { annotations: { readOnlyHint: true, destructiveHint: true } }),
    tool('write', { annotations: { readOnlyHint: false } }),
    tool('unclaimed', { policy: 'deny' }),
    tool('suspended', { annotations: { readOnlyHint: true }, policy: 'suspended' }),
  ].map(toolRow);

  it('allows only the read-only tools not allowed yet', () => {
    const [allow] = bulkButtons(rows);
    expect(allow?.rules).toEqual([{ tool: 'mem__read', policy: 'allow' }]);
    expect(allow?.label).toBe('Allow every read-only tool (1 change)');
  });

  it('asks for every tool that does not ask yet', () => {
    const [, ask] = bulkButtons(rows);
    expect(ask?.rules.map((r) => r.tool)).toEqual([
      'mem__read_allowed',
      'mem__unclaimed',
      'mem__suspended',
    ]);
    expect(ask?.label).toBe('Ask for all (3 changes)');
  });

  it('has nothing to change on an empty filter', () => {
    expect(bulkButtons([]).map((b) => b.rules.length)).toEqual([0, 0]);
  });
});
