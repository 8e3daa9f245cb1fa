import { describe, expect, it } from 'vitest';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import { isJsonRpcMessage } from './jsonrpc-envelope';

/**
 * The hand-written envelope check stands in for the SDK's `JSONRPCMessageSchema` on every stdout
 * line: it must say yes and no exactly where the schema does, or a message would be dropped as
 * noise, or a malformed line reach the SDK's dispatch (which rejects it with the line quoted).
 */

const sdkSays = (value: unknown): boolean => JSONRPCMessageSchema.safeParse(value).success;

const IDS: unknown[] = [
  1,
  0,
  -3,
  'a',
  '',
  1.5,
  null,
  true,
  {},
  [],
  2 ** 60,
  Number.MAX_SAFE_INTEGER,
];
const PARAMS: unknown[] = [
  undefined,
  {},
  { x: 1 },
  [],
  'p',
  null,
  { _meta: {} },
  { _meta: null },
  { _meta: [] },
  { _meta: { progressToken: 3 } },
  { _meta: { progressToken: 'tok', other: 1 } },
  { _meta: { progressToken: 1.5 } },
  { _meta: { progressToken: null } },
  { _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't' } } },
  { _meta: { 'io.modelcontextprotocol/related-task': { taskId: 1 } } },
  { _meta: { 'io.modelcontextprotocol/related-task': 'x' } },
];
const RESULTS: unknown[] = [
  {},
  { content: [] },
  [],
  null,
  'r',
  3,
  { _meta: {} },
  { _meta: [] },
  { _meta: 'm' },
  { _meta: { 'io.modelcontextprotocol/serverInfo': 'not an implementation' } },
];
const ERRORS: unknown[] = [
  { code: -32000, message: 'm' },
  { code: -32000, message: 'm', data: { anything: [1] } },
  { code: 1.5, message: 'm' },
  { code: '1', message: 'm' },
  { code: 1 },
  { message: 'm' },
  { code: 1, message: 2 },
  { code: 1, message: 'm', extra: true },
  null,
  [],
  'e',
];

/** Every combination of the pools above, with and without each envelope key. */
function* generated(): Generator {
  const versions: unknown[] = ['2.0', '1.0', 2, undefined];
  for (const jsonrpc of versions) {
    for (const id of [undefined, ...IDS]) {
      for (const method of [undefined, 'tools/call', '', 3]) {
        for (const params of PARAMS) yield envelope({ jsonrpc, id, method, params });
      }
      for (const result of RESULTS) yield envelope({ jsonrpc, id, result });
      for (const error of ERRORS) yield envelope({ jsonrpc, id, error });
    }
  }
}

function envelope(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

describe('isJsonRpcMessage', () => {
  it.each([
    ['a request', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
    ['a notification', { jsonrpc: '2.0', method: 'notifications/progress', params: {} }],
    ['a result', { jsonrpc: '2.0', id: 'x', result: { content: [] } }],
    ['an error without id', { jsonrpc: '2.0', error: { code: -32700, message: 'parse' } }],
  ])('accepts %s', (_label, value) => {
    expect(isJsonRpcMessage(value)).toBe(true);
    expect(sdkSays(value)).toBe(true);
  });

  it.each([
    ['null', null],
    ['an array', [{ jsonrpc: '2.0', id: 1, result: {} }]],
    ['a string', '{"jsonrpc":"2.0"}'],
    ['a result with an extra key', { jsonrpc: '2.0', id: 1, result: {}, extra: 1 }],
    [
      'a result and an error',
      { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'm' } },
    ],
    ['a method and a result', { jsonrpc: '2.0', id: 1, method: 'm', result: {} }],
    ['a result without id', { jsonrpc: '2.0', result: {} }],
    ['an error with id null', { jsonrpc: '2.0', id: null, error: { code: 1, message: 'm' } }],
    ['no envelope at all', { jsonrpc: '2.0' }],
    ['a __proto__ key', JSON.parse('{"jsonrpc":"2.0","id":1,"result":{},"__proto__":{}}')],
  ])('rejects %s', (_label, value: unknown) => {
    expect(isJsonRpcMessage(value)).toBe(false);
    expect(sdkSays(value)).toBe(false);
  });

  it('agrees with the SDK schema on every generated envelope', () => {
    let checked = 0;
    let accepted = 0;
    for (const value of generated()) {
      // Through JSON, as a line arrives: no undefined members, no shared objects.
      const line: unknown = JSON.parse(JSON.stringify(value));
      const ours = isJsonRpcMessage(line);
      if (ours !== sdkSays(line)) expect.fail(`disagree on ${JSON.stringify(line)}`);
      checked += 1;
      if (ours) accepted += 1;
    }
    // Both sides of the line were exercised.
    expect(checked).toBeGreaterThan(2_000);
    expect(accepted).toBeGreaterThan(50);
    expect(checked - accepted).toBeGreaterThan(1_000);
  });
});
