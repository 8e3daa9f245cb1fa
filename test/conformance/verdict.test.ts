import { describe, expect, test } from 'vitest';
import {
  BaselineSchema,
  outcomeOf,
  summaryLine,
  verdictOf,
  type Check,
  type ScenarioOutcome,
  type ScenarioRun,
} from './verdict';

// The dangerous direction is a failure counted as a pass, or let through as expected: every row
// that fails must fail for the reason given, and a baseline must cover exactly what fails.

const check = (status: Check['status'], id = `check-${status}`): Check => ({
  id,
  name: id,
  description: `${id} description`,
  status,
});

const run = (overrides: Partial<ScenarioRun>): ScenarioRun => ({
  scenario: 'initialize',
  exitCode: 0,
  checks: [check('SUCCESS'), check('INFO')],
  timedOut: false,
  ...overrides,
});

describe('outcomeOf', () => {
  test.each<[string, Partial<ScenarioRun>, boolean, string[]]>([
    ['all checks succeed, exit 0', {}, true, []],
    [
      'a FAILURE check',
      { checks: [check('FAILURE', 'tool-add-numbers')], exitCode: 1 },
      false,
      ['FAILURE tool-add-numbers: tool-add-numbers description'],
    ],
    [
      'a WARNING counts as a failure, as in the suite',
      { checks: [check('SUCCESS'), check('WARNING', 'client-sse-last-event-id')], exitCode: 1 },
      false,
      ['WARNING client-sse-last-event-id: client-sse-last-event-id description'],
    ],
    [
      'good checks but the client exited non-zero',
      { exitCode: 1, clientError: 'the server failed (handshake-timeout): no answer' },
      false,
      ['adapter: the server failed (handshake-timeout): no answer'],
    ],
    [
      'good checks but a non-zero exit with no word from anyone',
      { exitCode: 1 },
      false,
      ['the suite exited with code 1'],
    ],
    [
      'the client gave up where the scenario allows it (the suite exits 0)',
      { exitCode: 0, clientError: 'the server failed (handshake-failed): HTTP 401' },
      true,
      [],
    ],
    ['a time-out', { timedOut: true, exitCode: 1 }, false, ['the client timed out']],
    ['no checks.json', { checks: null }, false, ['the suite wrote no checks.json']],
    [
      'exit 0 does not excuse a FAILURE check',
      { checks: [check('FAILURE', 'x')], exitCode: 0 },
      false,
      ['FAILURE x: x description'],
    ],
    [
      'SKIPPED and INFO checks are not problems',
      { checks: [check('SKIPPED'), check('INFO')] },
      true,
      [],
    ],
  ])('%s', (_, overrides, passed, problems) => {
    const outcome = outcomeOf(run(overrides));
    expect(outcome.passed).toBe(passed);
    expect(outcome.problems).toEqual(problems);
  });

  test('an error message is preferred to the description', () => {
    const failing = { ...check('FAILURE', 'pkce'), errorMessage: 'no code_challenge' };
    expect(outcomeOf(run({ checks: [failing], exitCode: 1 })).problems).toEqual([
      'FAILURE pkce: no code_challenge',
    ]);
  });
});

const outcome = (scenario: string, passed: boolean): ScenarioOutcome => ({
  scenario,
  passed,
  problems: passed ? [] : ['FAILURE x: y'],
  checkCounts: { success: passed ? 1 : 0, failure: passed ? 0 : 1, warning: 0 },
});

const ALL = ['initialize', 'tools_call', 'sse-retry', 'auth/metadata-default'];

describe('verdictOf', () => {
  test.each<
    [
      string,
      ScenarioOutcome[],
      Record<string, string>,
      { ok: boolean; unexpected?: string[]; stale?: string[]; unknown?: string[] },
    ]
  >([
    ['everything passes, empty baseline', [outcome('initialize', true)], {}, { ok: true }],
    [
      'a failure the baseline does not list',
      [outcome('initialize', true), outcome('tools_call', false)],
      {},
      { ok: false, unexpected: ['tools_call'] },
    ],
    [
      'a failure the baseline lists',
      [outcome('tools_call', false)],
      { tools_call: 'the host has no remote servers yet' },
      { ok: true },
    ],
    [
      'an expected failure that now passes makes the baseline stale',
      [outcome('tools_call', true)],
      { tools_call: 'the host has no remote servers yet' },
      { ok: false, stale: ['tools_call'] },
    ],
    [
      'a baseline entry covers only its own scenario',
      [outcome('tools_call', false), outcome('sse-retry', false)],
      { tools_call: 'reason' },
      { ok: false, unexpected: ['sse-retry'] },
    ],
    [
      'a baseline entry naming no scenario',
      [outcome('initialize', true)],
      { 'auth/basic-dcr': 'renamed long ago' },
      { ok: false, unknown: ['auth/basic-dcr'] },
    ],
    [
      'a subset run does not call an entry for a scenario it skipped stale',
      [outcome('initialize', true)],
      { 'auth/metadata-default': 'no OAuth yet' },
      { ok: true },
    ],
  ])('%s', (_, outcomes, expectedFailures, want) => {
    const verdict = verdictOf(outcomes, { expectedFailures }, ALL);
    expect(verdict.ok).toBe(want.ok);
    expect(verdict.unexpected).toEqual(want.unexpected ?? []);
    expect(verdict.stale).toEqual(want.stale ?? []);
    expect(verdict.unknown).toEqual(want.unknown ?? []);
  });

  test('the summary line counts scenarios', () => {
    const verdict = verdictOf(
      [outcome('initialize', true), outcome('tools_call', false), outcome('sse-retry', false)],
      { expectedFailures: { tools_call: 'reason' } },
      ALL,
    );
    expect(summaryLine(verdict)).toBe('conformance: 1 passed, 2 failed (1 expected)');
  });
});

describe('BaselineSchema', () => {
  test.each<[string, unknown, boolean]>([
    ['an entry with its reason', { expectedFailures: { 'sse-retry': 'why' } }, true],
    ['an empty baseline', { expectedFailures: {} }, true],
    ['an entry without a reason', { expectedFailures: { 'sse-retry': '  ' } }, false],
    ['a list without reasons', { expectedFailures: ['sse-retry'] }, false],
    ['an unknown member (a typo of expectedFailures)', { expectedFailure: {} }, false],
  ])('%s', (_, value, accepted) => {
    expect(BaselineSchema.safeParse(value).success).toBe(accepted);
  });
});
