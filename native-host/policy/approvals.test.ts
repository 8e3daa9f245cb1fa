import { describe, expect, test } from 'vitest';
import { canonicalHash } from '../shared/canonical-json';
import {
  APPROVAL_TOKEN_BYTES,
  ApprovalLedger,
  DEFAULT_APPROVAL_TTL_MS,
  MAX_REMEMBERED_REDEEMED,
  approvalArgumentsHash,
  type ApprovalCall,
  type ApprovalRequest,
  type ApprovalTarget,
  type RedeemFailure,
} from './approvals';
import { seededRandom as prng } from '../../test/support/seeded-random';

// Dangerous direction: a redeem that succeeds for anything but the one call the user saw, or a
// second time. A legitimate approval refused only costs the user another click.

function seededBytes(seed: number): (n: number) => Buffer {
  const random = prng(seed);
  return (n) => Buffer.from(Array.from({ length: n }, () => Math.floor(random() * 256)));
}

function fakeClock(start = 1_700_000_000_000) {
  const clock = { t: start, now: () => clock.t };
  return clock;
}

const CREATE: ApprovalCall = {
  server: 'github',
  tool: 'create_issue',
  exposedName: 'github__create_issue',
  definitionHash: 'create-issue-v1',
  arguments: { repo: 'octo/hello', title: 'Bug', labels: ['bug', 'p1'], count: 1, meta: { a: 1 } },
  warnings: ['destructive'],
};

const DELETE: ApprovalCall = {
  server: 'github',
  tool: 'delete_repo',
  exposedName: 'github__delete_repo',
  definitionHash: 'delete-repo-v1',
  arguments: { repo: 'octo/hello' },
  warnings: [],
};

/** The tool an approval call names, without its arguments. */
function targetOf(call: ApprovalTarget): ApprovalTarget {
  const { server, tool, exposedName, definitionHash } = call;
  return { server, tool, exposedName, definitionHash };
}

function callOf(request: ApprovalRequest) {
  return { ...targetOf(request), arguments: { ...request.arguments } };
}

describe('issue', () => {
  test('returns independent 128-bit random id and nonce, the hash, and the expiry', () => {
    const clock = fakeClock();
    const ledger = new ApprovalLedger({ now: clock.now });
    const request = ledger.issue(CREATE);
    expect(request.requestId).toMatch(new RegExp(`^[0-9a-f]{${APPROVAL_TOKEN_BYTES * 2}}$`));
    expect(request.nonce).toMatch(new RegExp(`^[0-9a-f]{${APPROVAL_TOKEN_BYTES * 2}}$`));
    expect(request.nonce).not.toBe(request.requestId);
    expect(request).toMatchObject({
      server: 'github',
      tool: 'create_issue',
      exposedName: 'github__create_issue',
      arguments: CREATE.arguments,
      argumentsHash: canonicalHash(CREATE.arguments),
      warnings: ['destructive'],
      expiresAt: clock.t + DEFAULT_APPROVAL_TTL_MS,
    });
  });

  test('copies the arguments: a later change by the caller changes nothing', () => {
    const args: Record<string, unknown> = { path: '/tmp/a', nested: { depth: 1 } };
    const ledger = new ApprovalLedger();
    const request = ledger.issue({ ...CREATE, arguments: args });
    args['path'] = '/etc/passwd';
    args['nested'] = { depth: 2 };
    expect(request.arguments).toEqual({ path: '/tmp/a', nested: { depth: 1 } });
    expect(ledger.redeem(request, { ...targetOf(CREATE), arguments: args })).toEqual({
      ok: false,
      reason: 'arguments-mismatch',
    });
    expect(
      ledger.redeem(request, {
        ...targetOf(CREATE),
        arguments: { nested: { depth: 1 }, path: '/tmp/a' },
      }).ok,
    ).toBe(true);
  });

  test('undefined arguments are {}', () => {
    const ledger = new ApprovalLedger();
    const none = ledger.issue({ ...DELETE, arguments: undefined });
    expect(none.arguments).toEqual({});
    expect(none.argumentsHash).toBe(canonicalHash({}));
    expect(ledger.redeem(none, { ...targetOf(DELETE), arguments: {} }).ok).toBe(true);
    const empty = ledger.issue({ ...DELETE, arguments: {} });
    expect(ledger.redeem(empty, { ...targetOf(DELETE), arguments: undefined }).ok).toBe(true);
  });

  test('refuses options that would make approvals never or always expire', () => {
    expect(() => new ApprovalLedger({ ttlMs: 0 })).toThrow(RangeError);
    expect(() => new ApprovalLedger({ ttlMs: Number.POSITIVE_INFINITY })).toThrow(RangeError);
    expect(() => new ApprovalLedger({ maxPending: 0 })).toThrow(RangeError);
    expect(() => new ApprovalLedger({ maxPending: 1.5 })).toThrow(RangeError);
  });

  test('refuses a randomBytes that repeats or returns the wrong length', () => {
    const same = new ApprovalLedger({ randomBytes: (n) => Buffer.alloc(n, 7) });
    same.issue(CREATE); // id and nonce equal: allowed, but the next id would repeat
    expect(() => same.issue(CREATE)).toThrow(/already in use/);
    const short = new ApprovalLedger({ randomBytes: () => Buffer.alloc(4) });
    expect(() => short.issue(CREATE)).toThrow(/returned 4 bytes/);
  });
});

describe('redeem', () => {
  test('happy path: the exact call, key order irrelevant', () => {
    const ledger = new ApprovalLedger();
    const request = ledger.issue(CREATE);
    const result = ledger.redeem(
      { requestId: request.requestId, nonce: request.nonce },
      {
        server: 'github',
        tool: 'create_issue',
        exposedName: 'github__create_issue',
        definitionHash: 'create-issue-v1',
        arguments: {
          meta: { a: 1 },
          count: 1,
          labels: ['bug', 'p1'],
          title: 'Bug',
          repo: 'octo/hello',
        },
      },
    );
    expect(result).toEqual({ ok: true, request });
  });

  test('exactly once; then replayed, and a replay with a wrong nonce is a nonce mismatch', () => {
    const ledger = new ApprovalLedger();
    const request = ledger.issue(CREATE);
    expect(ledger.redeem(request, callOf(request)).ok).toBe(true);
    for (let i = 0; i < 3; i++) {
      expect(ledger.redeem(request, callOf(request))).toEqual({ ok: false, reason: 'replayed' });
    }
    expect(ledger.redeem({ ...request, nonce: '0'.repeat(32) }, callOf(request))).toEqual({
      ok: false,
      reason: 'nonce-mismatch',
    });
  });

  test('expires at expiresAt exactly, with an injected clock', () => {
    const clock = fakeClock();
    const ledger = new ApprovalLedger({ now: clock.now, ttlMs: 1_000 });
    const early = ledger.issue(CREATE);
    const late = ledger.issue(CREATE);
    clock.t += 999;
    expect(ledger.redeem(early, callOf(early)).ok).toBe(true);
    clock.t += 1;
    expect(clock.t).toBe(late.expiresAt);
    expect(ledger.redeem(late, callOf(late))).toEqual({ ok: false, reason: 'expired' });
    clock.t += 60_000;
    expect(ledger.redeem(late, callOf(late))).toEqual({ ok: false, reason: 'expired' });
  });

  test('a wrong nonce does not consume the request (else a guesser could cancel the click)', () => {
    const ledger = new ApprovalLedger();
    const request = ledger.issue(CREATE);
    for (const nonce of ['', 'x', request.nonce.slice(1), `${request.nonce}0`, 'é'.repeat(16)]) {
      expect(ledger.redeem({ requestId: request.requestId, nonce }, callOf(request))).toEqual({
        ok: false,
        reason: 'nonce-mismatch',
      });
    }
    expect(ledger.redeem(request, callOf(request)).ok).toBe(true);
  });

  test.each<[string, Record<string, unknown> | undefined]>([
    ['one field changed', { ...CREATE.arguments, title: 'Bug!' }],
    ['number became string', { ...CREATE.arguments, count: '1' }],
    ['extra key', { ...CREATE.arguments, assignee: 'mallory' }],
    ['missing key', { repo: 'octo/hello', title: 'Bug', labels: ['bug', 'p1'], count: 1 }],
    ['nested change', { ...CREATE.arguments, meta: { a: 2 } }],
    ['array reordered', { ...CREATE.arguments, labels: ['p1', 'bug'] }],
    ['null added', { ...CREATE.arguments, extra: null }],
    ['no arguments', undefined],
    ['not JSON', { ...CREATE.arguments, count: Number.NaN }],
    ['not JSON either', { ...CREATE.arguments, count: 1n }],
  ])('arguments mismatch: %s (and the request survives it)', (_label, args) => {
    const ledger = new ApprovalLedger();
    const request = ledger.issue(CREATE);
    expect(ledger.redeem(request, { ...targetOf(CREATE), arguments: args })).toEqual({
      ok: false,
      reason: 'arguments-mismatch',
    });
    expect(ledger.redeem(request, callOf(request)).ok).toBe(true);
  });

  test('an undefined member is no member (JSON cannot carry it)', () => {
    const ledger = new ApprovalLedger();
    const request = ledger.issue(CREATE);
    expect(
      ledger.redeem(request, {
        ...targetOf(CREATE),
        arguments: { ...CREATE.arguments, ignored: undefined },
      }).ok,
    ).toBe(true);
  });

  test('tool mismatch', () => {
    const ledger = new ApprovalLedger();
    const request = ledger.issue(CREATE);
    expect(ledger.redeem(request, { ...targetOf(DELETE), arguments: CREATE.arguments })).toEqual({
      ok: false,
      reason: 'tool-mismatch',
    });
  });

  // The exposed name alone is not the tool: a listing rebuilt while the card was open can point
  // it at another server's tool, and a server can change the definition the card showed.
  test.each<[string, Partial<ApprovalTarget>]>([
    ['the name now points at another server', { server: 'workspace-fs' }],
    ['the name now points at another raw tool', { tool: 'create_issues' }],
    ['the definition changed since the card', { definitionHash: 'create-issue-v2' }],
  ])('tool mismatch when %s, and the approval still holds for its own tool', (_, change) => {
    const ledger = new ApprovalLedger();
    const request = ledger.issue(CREATE);
    expect(
      ledger.redeem(request, { ...targetOf(CREATE), ...change, arguments: CREATE.arguments }),
    ).toEqual({ ok: false, reason: 'tool-mismatch' });
    expect(ledger.redeem(request, callOf(request)).ok).toBe(true);
  });

  test('forgets the oldest pending request past maxPending', () => {
    const ledger = new ApprovalLedger({ maxPending: 3 });
    const requests = [1, 2, 3, 4].map((n) => ledger.issue({ ...CREATE, arguments: { n } }));
    const [first, ...rest] = requests;
    expect(ledger.redeem(first!, callOf(first!))).toEqual({ ok: false, reason: 'unknown' });
    for (const request of rest) expect(ledger.redeem(request, callOf(request)).ok).toBe(true);
  });

  test('a redeemed id is refused forever; past the memory bound it is refused as unknown', () => {
    const ledger = new ApprovalLedger({ maxPending: 1 });
    const first = ledger.issue(CREATE);
    expect(ledger.redeem(first, callOf(first)).ok).toBe(true);
    for (let i = 0; i < MAX_REMEMBERED_REDEEMED; i++) {
      const request = ledger.issue(CREATE);
      expect(ledger.redeem(request, callOf(request)).ok).toBe(true);
    }
    expect(ledger.redeem(first, callOf(first))).toEqual({ ok: false, reason: 'unknown' });
  });
});

describe('cancel', () => {
  test('a denied request can never be redeemed; others are untouched', () => {
    const ledger = new ApprovalLedger();
    const denied = ledger.issue(CREATE);
    const other = ledger.issue(DELETE);
    ledger.cancel(denied.requestId);
    ledger.cancel(denied.requestId);
    ledger.cancel('not-an-id');
    expect(ledger.redeem(denied, callOf(denied))).toEqual({ ok: false, reason: 'unknown' });
    expect(ledger.redeem(other, callOf(other)).ok).toBe(true);
  });

  test('cancelAll', () => {
    const ledger = new ApprovalLedger();
    const requests = [ledger.issue(CREATE), ledger.issue(DELETE)];
    ledger.cancelAll();
    for (const request of requests) {
      expect(ledger.redeem(request, callOf(request))).toEqual({ ok: false, reason: 'unknown' });
    }
    const fresh = ledger.issue(CREATE);
    expect(ledger.redeem(fresh, callOf(fresh)).ok).toBe(true);
  });
});

describe('1,000 forged or replayed approvals', () => {
  test('none redeems, each fails for the expected reason, and the real ones still redeem', () => {
    const clock = fakeClock();
    const ttlMs = 60_000;
    const ledger = new ApprovalLedger({ now: clock.now, randomBytes: seededBytes(1), ttlMs });
    const stale = ledger.issue(CREATE);
    clock.t += ttlMs; // `stale` is now expired; everything issued from here on is fresh
    const used = ledger.issue(CREATE);
    expect(ledger.redeem(used, callOf(used)).ok).toBe(true);
    const legit = ledger.issue(CREATE);
    const other = ledger.issue(DELETE);

    const random = prng(0xf0e1);
    const int = (n: number) => Math.floor(random() * n);
    const hex = (chars: number) =>
      Array.from({ length: chars }, () => '0123456789abcdef'[int(16)]).join('');
    /** `text` with one character replaced by a different hex digit. */
    const flip = (text: string) => {
      const at = int(text.length);
      const was = text[at];
      const now = was === 'f' ? '0' : '0123456789abcdef'[(parseInt(was ?? '0', 16) + 1) % 16];
      return `${text.slice(0, at)}${now ?? '0'}${text.slice(at + 1)}`;
    };
    const legitArgs = (): Record<string, unknown> => ({ ...legit.arguments });
    const swapped = (): Record<string, unknown> => {
      const args = legitArgs();
      switch (int(6)) {
        case 0:
          args['title'] = `Bug ${hex(4)}`;
          break;
        case 1:
          args['count'] = '1';
          break;
        case 2:
          args[`x${hex(3)}`] = int(10);
          break;
        case 3:
          delete args['labels'];
          break;
        case 4:
          args['meta'] = { a: '1' };
          break;
        default:
          return { ...DELETE.arguments };
      }
      return args;
    };
    const legitCall = () => ({ ...targetOf(legit), arguments: legitArgs() });

    type Attempt = readonly [
      string,
      { requestId: string; nonce: string },
      ApprovalTarget & { arguments: Record<string, unknown> | undefined },
      RedeemFailure,
    ];
    const forgeries: (() => Attempt)[] = [
      () => ['random id', { requestId: hex(32), nonce: hex(32) }, legitCall(), 'unknown'],
      () => [
        'right id, wrong nonce',
        { requestId: legit.requestId, nonce: hex(32) },
        legitCall(),
        'nonce-mismatch',
      ],
      () => [
        'right id, nonce off by one char',
        { requestId: legit.requestId, nonce: flip(legit.nonce) },
        legitCall(),
        'nonce-mismatch',
      ],
      () => [
        'right id, nonce of another length',
        { requestId: legit.requestId, nonce: hex(int(64)) },
        legitCall(),
        'nonce-mismatch',
      ],
      () => [
        'right nonce, random id',
        { requestId: hex(32), nonce: legit.nonce },
        legitCall(),
        'unknown',
      ],
      () => [
        'right nonce, id off by one char',
        { requestId: flip(legit.requestId), nonce: legit.nonce },
        legitCall(),
        'unknown',
      ],
      () => [
        'right nonce, another request id',
        { requestId: other.requestId, nonce: legit.nonce },
        legitCall(),
        'nonce-mismatch',
      ],
      () => [
        'swapped arguments',
        legit,
        { ...targetOf(legit), arguments: swapped() },
        'arguments-mismatch',
      ],
      () => [
        'approval moved to another tool',
        legit,
        { ...targetOf(other), arguments: legitArgs() },
        'tool-mismatch',
      ],
      () => [
        'the same name, now on another server',
        legit,
        { ...targetOf(legit), server: 'workspace-fs', arguments: legitArgs() },
        'tool-mismatch',
      ],
      () => [
        'the same name, now another raw tool',
        legit,
        { ...targetOf(legit), tool: 'write_file', arguments: legitArgs() },
        'tool-mismatch',
      ],
      () => [
        'the definition changed under the card',
        legit,
        { ...targetOf(legit), definitionHash: hex(64), arguments: legitArgs() },
        'tool-mismatch',
      ],
      () => ["another tool's approval", other, legitCall(), 'tool-mismatch'],
      () => ['replay of a used approval', used, callOf(used), 'replayed'],
      () => ['expired approval', stale, callOf(stale), 'expired'],
    ];

    const reasons = new Map<string, number>();
    for (let i = 0; i < 1_000; i++) {
      const [label, token, call, reason] = forgeries[int(forgeries.length)]!();
      const result = ledger.redeem({ requestId: token.requestId, nonce: token.nonce }, call);
      expect([label, result]).toEqual([label, { ok: false, reason }]);
      reasons.set(label, (reasons.get(label) ?? 0) + 1);
    }
    expect(reasons.size).toBe(forgeries.length); // every kind was tried

    expect(ledger.redeem(legit, legitCall())).toEqual({ ok: true, request: legit });
    expect(ledger.redeem(other, callOf(other)).ok).toBe(true);
    expect(ledger.redeem(legit, legitCall())).toEqual({ ok: false, reason: 'replayed' });
  });
});

describe('approvalArgumentsHash', () => {
  test('canonical: key order ignored, values and types not', () => {
    expect(approvalArgumentsHash({ a: 1, b: [1, 2] })).toBe(
      approvalArgumentsHash({ b: [1, 2], a: 1 }),
    );
    expect(approvalArgumentsHash({ a: 1 })).not.toBe(approvalArgumentsHash({ a: '1' }));
    expect(approvalArgumentsHash(undefined)).toBe(approvalArgumentsHash({}));
  });
});
