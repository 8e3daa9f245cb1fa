import { describe, expect, test } from 'vitest';
import type { ContextMeter } from '../../messaging/ui-protocol';
import {
  budgetView,
  exactTokens,
  formatTokens,
  largestServers,
  meterSegments,
  meterSummary,
  windowView,
  toolSearchText,
} from './context-meter-view';

const meter: ContextMeter = {
  system: 200,
  conversation: 1800,
  images: 0,
  tools: 9000,
  mcpTools: 8000,
  mcpByServer: [
    { server: 'github', tokens: 5000 },
    { server: 'fs', tokens: 2000 },
    { server: 'memory', tokens: 600 },
    { server: 'time', tokens: 400 },
  ],
  total: 11_000,
  budget: null,
  window: null,
  toolSearch: null,
};

test.each([
  [0, '0'],
  [950, '950'],
  [1000, '1k'],
  [1234, '1.2k'],
  [12_345, '12.3k'],
  [123_456, '123k'],
  [999_600, '1M'],
  [1_234_567, '1.2M'],
  [-5, '0'],
])('formatTokens(%i) = %s', (n, text) => {
  expect(formatTokens(n)).toBe(text);
});

test('exactTokens groups thousands', () => {
  expect(exactTokens(1234567)).toBe('1,234,567');
  expect(exactTokens(12)).toBe('12');
});

describe('meterSegments', () => {
  test('carves MCP tools out of the tools total', () => {
    const segments = meterSegments(meter);
    expect(segments.map((s) => [s.key, s.tokens])).toEqual([
      ['system', 200],
      ['conversation', 1800],
      ['builtin', 1000],
      ['mcp', 8000],
    ]);
    expect(segments.reduce((sum, s) => sum + s.fraction, 0)).toBeCloseTo(1);
  });

  test('images get a segment of their own, carved out of the conversation, once there are any', () => {
    const segments = meterSegments({ ...meter, images: 1500 });
    expect(segments.map((s) => [s.key, s.tokens])).toEqual([
      ['system', 200],
      ['conversation', 300],
      ['images', 1500],
      ['builtin', 1000],
      ['mcp', 8000],
    ]);
    expect(segments.reduce((sum, s) => sum + s.fraction, 0)).toBeCloseTo(1);
    // A figure above the conversation's own (it cannot be) never draws a negative segment.
    const odd = meterSegments({ ...meter, conversation: 100, images: 400 });
    expect(odd.map((s) => [s.key, s.tokens]).slice(1, 3)).toEqual([
      ['conversation', 0],
      ['images', 100],
    ]);
  });

  test('an empty meter draws an empty bar, not NaN', () => {
    const empty = {
      ...meter,
      system: 0,
      conversation: 0,
      tools: 0,
      mcpTools: 0,
      mcpByServer: [],
      total: 0,
    };
    expect(meterSegments(empty).every((s) => s.fraction === 0)).toBe(true);
  });

  test('never a negative built-in segment', () => {
    expect(meterSegments({ ...meter, tools: 100, mcpTools: 200 })[2]?.tokens).toBe(0);
  });
});

test('largestServers names the top ones and sums the rest', () => {
  expect(largestServers(meter, 2)).toEqual({
    named: [
      { server: 'github', tokens: 5000 },
      { server: 'fs', tokens: 2000 },
    ],
    others: { count: 2, tokens: 1000 },
  });
});

describe('budgetView', () => {
  test('none without a budget', () => {
    expect(budgetView(meter)).toBeNull();
  });
  test('within budget', () => {
    expect(budgetView({ ...meter, budget: { used: 8000, limit: 10_000 } })).toMatchObject({
      over: false,
      fraction: 0.8,
      text: 'Tool budget: 8k of 10k tokens',
      hint: null,
    });
  });
  test('over budget says by how much and what to do', () => {
    const view = budgetView({ ...meter, budget: { used: 12_500, limit: 10_000 } });
    expect(view).toMatchObject({
      over: true,
      fraction: 1,
      text: 'Tool budget: 12.5k of 10k tokens, 2.5k over',
    });
    expect(view?.hint).toMatch(/popup/);
  });
});

test('meterSummary', () => {
  expect(meterSummary(meter)).toBe('11k tokens per turn · MCP tools 8k');
  const windowed = {
    ...meter,
    window: { tokens: 128_000, source: 'known', model: 'gpt-4o' },
  } as const;
  expect(meterSummary(windowed)).toBe('11k of 128k tokens · MCP tools 8k');
});

describe('against the model window (issue 14)', () => {
  // Dangerous direction: a meter that looks roomy while the turn is over the window.
  const at = (tokens: number, source: 'known' | 'setting' | 'default') =>
    ({ ...meter, window: { tokens, source, model: 'm' } }) as const;

  test('the bar is a share of the window, the rest left empty', () => {
    const total = meterSegments(at(110_000, 'known')).reduce((sum, s) => sum + s.fraction, 0);
    expect(total).toBeCloseTo(0.1);
  });

  test('a turn over the window fills the bar and says so', () => {
    expect(meterSegments(at(5_000, 'setting')).reduce((sum, s) => sum + s.fraction, 0)).toBeCloseTo(
      1,
    );
    expect(windowView(at(5_000, 'setting'))).toEqual({
      text: 'Context window of m: 5,000 tokens (your setting in options).',
      over: true,
    });
  });

  test.each([
    ['known', 'its published figure'],
    ['setting', 'your setting in options'],
    ['default', 'assumed: Switchyard does not know this model; set its window in options'],
  ] as const)('the figure from %s is named', (source, words) => {
    expect(windowView(at(200_000, source))).toEqual({
      text: `Context window of m: 200,000 tokens (${words}).`,
      over: false,
    });
  });

  test('no model, no window line', () => {
    expect(windowView(meter)).toBeNull();
  });
});

describe('tool search mode', () => {
  const searching: ContextMeter = {
    ...meter,
    budget: { used: 12_500, limit: 10_000 },
    toolSearch: { reason: 'over-budget', pinned: 2, searchable: 100 },
  };

  test.each([
    [null, null],
    [
      { reason: 'over-budget' as const, pinned: 2, searchable: 100 },
      "Tool search is on (over this profile's budget): the model is offered 2 pinned tools and finds the other 98 by search.",
    ],
    [
      { reason: 'setting' as const, pinned: 1, searchable: 1 },
      "Tool search is on (the profile's setting): the model is offered 1 pinned tool and finds the other 0 by search.",
    ],
  ])('%j -> %s', (toolSearch, text) => {
    expect(toolSearchText({ ...meter, toolSearch })).toBe(text);
  });

  test('over budget in search mode says search is on, not what to disable', () => {
    expect(budgetView(searching)?.hint).toBe(toolSearchText(searching));
    expect(meterSummary(searching)).toMatch(/ · tool search on$/);
    expect(meterSummary(meter)).not.toMatch(/tool search/);
  });
});
