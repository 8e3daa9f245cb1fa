import { describe, expect, test } from 'vitest';
import { budgetReport, type CostedTool } from './budget';

// Banner: a wrong suggestion costs the user a server they did not need to disable, so the plan
// prefers the smallest single removal that is enough; a wrong total would hide an over-budget
// profile, so `used` and `over` are checked exactly.

const tool = (server: string, name: string, tokens: number): CostedTool => ({
  server,
  name: `${server}__${name}`,
  tokens,
});

const LISTING: readonly CostedTool[] = [
  tool('github', 'search_issues', 300),
  tool('github', 'create_issue', 250),
  tool('github', 'list_repos', 150),
  tool('fs', 'read', 120),
  tool('fs', 'write', 130),
  tool('memory', 'read_graph', 60),
  tool('memory', 'add', 40),
];
// Totals: github 700, fs 250, memory 100; all 1050.

describe('budgetReport', () => {
  test.each([
    // limit, used, headroom, over, suggestions
    [2_000, 1_050, 950, false, []],
    [1_050, 1_050, 0, false, []],
    [1_049, 1_050, -1, true, [{ kind: 'tool', server: 'memory', tool: 'memory__add', saves: 40 }]],
    [
      1_000,
      1_050,
      -50,
      true,
      [{ kind: 'tool', server: 'memory', tool: 'memory__read_graph', saves: 60 }],
    ],
    [
      800,
      1_050,
      -250,
      true,
      [{ kind: 'tool', server: 'github', tool: 'github__create_issue', saves: 250 }],
    ],
    // No tool covers 350; fs (250) does not either; github does.
    [700, 1_050, -350, true, [{ kind: 'server', server: 'github', saves: 700 }]],
    [
      100,
      1_050,
      -950,
      true,
      [
        { kind: 'server', server: 'github', saves: 700 },
        { kind: 'server', server: 'fs', saves: 250 },
      ],
    ],
    [
      1,
      1_050,
      -1_049,
      true,
      [
        { kind: 'server', server: 'github', saves: 700 },
        { kind: 'server', server: 'fs', saves: 250 },
        { kind: 'server', server: 'memory', saves: 100 },
      ],
    ],
  ] as const)('limit %i: used %i, headroom %i, over %s', (limit, used, headroom, over, plan) => {
    const report = budgetReport(limit, LISTING);
    expect(report).toEqual({ limit, used, headroom, over, suggestions: plan });
  });

  test('every plan covers the excess', () => {
    for (let limit = 1; limit <= 1_100; limit += 7) {
      const report = budgetReport(limit, LISTING);
      const saved = report.suggestions.reduce((sum, s) => sum + s.saves, 0);
      if (report.over) expect(saved).toBeGreaterThanOrEqual(report.used - limit);
      else expect(report.suggestions).toEqual([]);
    }
  });

  test('breaks ties by name, so the same listing gets the same advice', () => {
    const even = [tool('b', 'x', 50), tool('a', 'x', 50)];
    expect(budgetReport(60, even).suggestions).toEqual([
      { kind: 'tool', server: 'a', tool: 'a__x', saves: 50 },
    ]);
    expect(budgetReport(60, [...even].reverse()).suggestions).toEqual([
      { kind: 'tool', server: 'a', tool: 'a__x', saves: 50 },
    ]);
  });

  test('an empty listing is never over', () => {
    expect(budgetReport(10, [])).toEqual({
      limit: 10,
      used: 0,
      headroom: 10,
      over: false,
      suggestions: [],
    });
  });
});
