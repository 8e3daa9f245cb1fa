import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, test } from 'vitest';
import type { z } from 'zod';
import { ErrorReasonSchema, HostErrorDataSchema, type ErrorReason } from './errors';
import {
  JsonRpcErrorCode,
  JsonRpcFailureSchema,
  JsonRpcRequestSchema,
  parseJsonRpcMessage,
} from './jsonrpc';
import {
  PROTOCOL_VERSION,
  clientNotifications,
  hostNotifications,
  isRequestMethod,
  paramsSchemaOf,
  requestMethods,
  type ClientNotification,
  type HostNotification,
  type RequestMethod,
} from './methods';
import { ConsentRequestSchema, ServerStateSchema, ServerSummarySchema } from './servers';
import {
  ApprovalRequestSchema,
  ApprovalTokenSchema,
  CallToolResultSchema,
  ExposedToolSchema,
} from './tools';
import { isRecord } from './guards';

/**
 * Invariants of the public contract (style.md habit 12): every method and notification in the
 * table has a golden fixture that its schema accepts unchanged, a `### \`name\`` section in
 * docs/protocol.md whose JSON examples are that fixture, and every error reason has a fixture, a
 * row in the doc's reason table, and is shown in the doc only as that fixture. Nothing may exist
 * for a name the table does not have. The fixtures were recorded from real exchanges with the
 * host, and the ones that belong to one flow (an approval and the call that redeems it, a consent
 * card and its approval) still agree with each other.
 */

const FIXTURES = join(import.meta.dirname, 'fixtures');
const ERROR_FIXTURES = join(FIXTURES, 'errors');
const DOC = join(import.meta.dirname, '..', 'docs', 'protocol.md');

const methods: readonly RequestMethod[] = Object.keys(requestMethods).filter(isRequestMethod);
const hostNotificationNames: readonly string[] = Object.keys(hostNotifications);
const clientNotificationNames: readonly string[] = Object.keys(clientNotifications);
const notificationSchemas: ReadonlyArray<readonly [string, z.ZodType]> = [
  ...Object.entries(hostNotifications),
  ...Object.entries(clientNotifications),
];
const allNames: readonly string[] = [
  ...methods,
  ...hostNotificationNames,
  ...clientNotificationNames,
];
const reasons: readonly ErrorReason[] = ErrorReasonSchema.options;

/** `tools/call` -> `tools-call`: the fixture file of a method or notification. */
function fixtureName(method: string): string {
  return method.replaceAll('/', '-');
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** A fixture file as a record with exactly `keys`; fails the test otherwise. */
function readFixture(name: string, keys: readonly string[]): Record<string, unknown> {
  const value = readJson(join(FIXTURES, `${fixtureName(name)}.json`));
  if (!isRecord(value)) throw new Error(`fixture of '${name}' is not a JSON object`);
  expect(Object.keys(value).sort(), `keys of the '${name}' fixture`).toEqual([...keys].sort());
  return value;
}

/**
 * Parses `value` and checks nothing was dropped: zod objects strip unknown keys, so a misspelt
 * optional field in a fixture would otherwise pass unnoticed.
 */
function expectParsesUnchanged(schema: z.ZodType, value: unknown, what: string): void {
  const parsed = schema.safeParse(value);
  expect(parsed.error?.issues, what).toBeUndefined();
  expect(parsed.data, `${what}: keys the schema does not know`).toEqual(value);
}

function jsonFilesIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => entry.name.slice(0, -'.json'.length));
}

describe('golden fixtures', () => {
  it('maps every name to its own fixture file', () => {
    const files = allNames.map(fixtureName);
    expect(new Set(files).size).toBe(allNames.length);
  });

  test.each(methods)('%s has params and result its schemas accept', (method) => {
    const fixture = readFixture(method, ['params', 'result']);
    expectParsesUnchanged(paramsSchemaOf(method), fixture['params'], `${method} params`);
    const result: z.ZodType = requestMethods[method].result;
    expectParsesUnchanged(result, fixture['result'], `${method} result`);
  });

  test.each(notificationSchemas)('%s has params its schema accepts', (name, schema) => {
    const fixture = readFixture(name, ['params']);
    expectParsesUnchanged(schema, fixture['params'], `${name} params`);
  });

  it('has no fixture for a name that is not in the method table', () => {
    const expected = new Set(allNames.map(fixtureName));
    const stale = jsonFilesIn(FIXTURES).filter((file) => !expected.has(file));
    expect(stale, 'fixtures without a method or notification').toEqual([]);
  });

  it('speaks the current protocol version in the handshake fixture', () => {
    const fixture = readFixture('host/hello', ['params', 'result']);
    const params = paramsSchemaOf('host/hello').parse(fixture['params']);
    const result = requestMethods['host/hello'].result.parse(fixture['result']);
    expect(params.protocolVersion).toBe(PROTOCOL_VERSION);
    expect(result.protocolVersion).toBe(PROTOCOL_VERSION);
  });

  it('keeps the tools/list token totals consistent with the tools', () => {
    const fixture = readFixture('tools/list', ['params', 'result']);
    const { tools, tokens } = requestMethods['tools/list'].result.parse(fixture['result']);
    // Denied tools are listed only with `includeDenied` and never count: the model is not sent them.
    const sent = tools.filter((tool) => tool.policy !== 'deny');
    const sum = sent.reduce((total, tool) => total + tool.tokens, 0);
    expect(tokens.total).toBe(sum);
    expect(Object.values(tokens.byServer).reduce((a, b) => a + b, 0)).toBe(sum);
  });
});

/** The JSON-RPC codes each reason may travel with (docs/protocol.md, "Errors"). */
const CODES_OF_REASON: Readonly<Record<ErrorReason, readonly number[]>> = {
  'invalid-request': [JsonRpcErrorCode.ParseError, JsonRpcErrorCode.InvalidRequest],
  'invalid-params': [JsonRpcErrorCode.InvalidParams],
  'unknown-method': [JsonRpcErrorCode.MethodNotFound],
  internal: [JsonRpcErrorCode.InternalError],
  'protocol-mismatch': [JsonRpcErrorCode.HostError],
  'unknown-server': [JsonRpcErrorCode.HostError],
  'unknown-tool': [JsonRpcErrorCode.HostError],
  'server-unavailable': [JsonRpcErrorCode.HostError],
  'not-supported': [JsonRpcErrorCode.HostError],
  'server-exited': [JsonRpcErrorCode.HostError],
  timeout: [JsonRpcErrorCode.HostError],
  cancelled: [JsonRpcErrorCode.HostError],
  'server-error': [JsonRpcErrorCode.HostError],
  'result-too-large': [JsonRpcErrorCode.HostError],
  'config-invalid': [JsonRpcErrorCode.HostError],
  'approval-required': [JsonRpcErrorCode.HostError],
  'approval-invalid': [JsonRpcErrorCode.HostError],
  denied: [JsonRpcErrorCode.HostError],
  'fingerprint-mismatch': [JsonRpcErrorCode.HostError],
  'not-pending': [JsonRpcErrorCode.HostError],
  'unknown-profile': [JsonRpcErrorCode.HostError],
  'already-exists': [JsonRpcErrorCode.HostError],
  'workspace-server': [JsonRpcErrorCode.HostError],
  busy: [JsonRpcErrorCode.HostError],
  'sign-in-failed': [JsonRpcErrorCode.HostError],
};

describe('servers/add over the wire', () => {
  // It approves what it writes with no card: it may only add. An existing entry changes through
  // servers/update, whose change waits for the user (the CLI's --replace is the terminal's).
  it.each([
    { name: 'files', command: 'npx', args: ['-y', 'other-server'], replace: true },
    { name: 'remote', url: 'https://mcp.example.com/mcp', replace: true },
  ])('refuses replace: %j', (params) => {
    expect(requestMethods['servers/add'].params.safeParse(params).success).toBe(false);
    const add = Object.fromEntries(Object.entries(params).filter(([key]) => key !== 'replace'));
    expect(requestMethods['servers/add'].params.safeParse(add).success).toBe(true);
  });
});

describe('error fixtures', () => {
  test.each(reasons)('%s has an error response fixture', (reason) => {
    const path = join(ERROR_FIXTURES, `${reason}.json`);
    expect(existsSync(path), path).toBe(true);
    const response = JsonRpcFailureSchema.parse(readJson(path));
    const data = HostErrorDataSchema.parse(response.error.data);
    expect(data.reason).toBe(reason);
    expect(CODES_OF_REASON[reason]).toContain(response.error.code);
    expect(response.error.message.length).toBeGreaterThan(0);
  });

  it('has no error fixture for a reason that is not in ErrorReasonSchema', () => {
    const known = new Set<string>(reasons);
    const stale = jsonFilesIn(ERROR_FIXTURES).filter((file) => !known.has(file));
    expect(stale, 'error fixtures without a reason').toEqual([]);
  });
});

function errorFixture(reason: ErrorReason): z.infer<typeof JsonRpcFailureSchema> {
  return JsonRpcFailureSchema.parse(readJson(join(ERROR_FIXTURES, `${reason}.json`)));
}

/** `data` of an error fixture, without `reason`. */
function errorDetails(reason: ErrorReason): Record<string, unknown> {
  const data = errorFixture(reason).error.data;
  if (!isRecord(data)) throw new Error(`the '${reason}' fixture has no data`);
  return data;
}

/** Why an approval was refused (`approval-invalid`'s `data.why`), as docs/protocol.md lists them. */
const APPROVAL_INVALID_WHY = [
  'unknown',
  'expired',
  'replayed',
  'nonce-mismatch',
  'tool-mismatch',
  'arguments-mismatch',
];

/** One untrusted-data block (native-host/untrusted/wrap.ts): the id closes only its own block. */
const UNTRUSTED_BLOCK =
  /^<untrusted-data id="([0-9a-f]{16})" source="[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+">\n[\s\S]*\n<\/untrusted-data id="\1">$/;

describe('fixtures of one flow agree with each other', () => {
  it('shows an approval request the extension can parse', () => {
    expectParsesUnchanged(
      ApprovalRequestSchema,
      errorDetails('approval-required')['approval'],
      'approval-required data.approval',
    );
  });

  it('re-sends the call with the approval it was given, for the same tool and arguments', () => {
    const approval = ApprovalRequestSchema.parse(errorDetails('approval-required')['approval']);
    const call = paramsSchemaOf('tools/call').parse(
      readFixture('tools/call', ['params', 'result'])['params'],
    );
    expect(call.approval).toEqual(ApprovalTokenSchema.parse(approval));
    expect(call.name).toBe(approval.exposedName);
    expect(call.arguments).toEqual(approval.arguments);
  });

  it('wraps every text block of a tool result in an untrusted-data block', () => {
    const result = CallToolResultSchema.parse(
      readFixture('tools/call', ['params', 'result'])['result'],
    );
    const texts = result.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) expect(text).toMatch(UNTRUSTED_BLOCK);
  });

  it('names a documented cause when it refuses an approval', () => {
    expect(APPROVAL_INVALID_WHY).toContain(errorDetails('approval-invalid')['why']);
  });

  it('approves a launch with the fingerprint of the pending consent card', () => {
    const { requests } = requestMethods['trust/pending'].result.parse(
      readFixture('trust/pending', ['params', 'result'])['result'],
    );
    const approve = paramsSchemaOf('trust/approve').parse(
      readFixture('trust/approve', ['params', 'result'])['params'],
    );
    const card = requests.find((request) => request.server === approve.server);
    expect(card?.fingerprint).toBe(approve.fingerprint);
  });

  it('answers a stale fingerprint with the consent card of what would run now', () => {
    const consent = errorDetails('fingerprint-mismatch')['consent'];
    expectParsesUnchanged(ConsentRequestSchema, consent, 'fingerprint-mismatch data.consent');
    const approve = paramsSchemaOf('trust/approve').parse(
      readFixture('trust/approve', ['params', 'result'])['params'],
    );
    expect(ConsentRequestSchema.parse(consent).fingerprint).not.toBe(approve.fingerprint);
  });

  it('shows every server a revoke affected waiting for approval again', () => {
    const { servers } = requestMethods['trust/revoke'].result.parse(
      readFixture('trust/revoke', ['params', 'result'])['result'],
    );
    expect(servers.length).toBeGreaterThan(0);
    for (const server of servers) {
      expectParsesUnchanged(ServerSummarySchema, server, `trust/revoke ${server.name}`);
      expect(server.status.state).toBe('needs-approval');
    }
  });

  it('imports entries with the digests and suggested names their preview showed', () => {
    const preview = requestMethods['import/preview'].result.parse(
      readFixture('import/preview', ['params', 'result'])['result'],
    );
    const { entries } = paramsSchemaOf('import/apply').parse(
      readFixture('import/apply', ['params', 'result'])['params'],
    );
    for (const selection of entries) {
      const shown = preview.sources
        .find((source) => source.source === selection.source)
        ?.entries.find((entry) => entry.name === selection.name);
      expect(shown?.digest, `${selection.source} ${selection.name}`).toBe(selection.digest);
      expect(shown?.action).toBe(selection.as === undefined ? 'add' : 'conflict');
      if (selection.as !== undefined) expect(selection.as).toBe(shown?.suggestedName);
    }
  });
});

/** The text of each `### \`name\`` section of the doc, up to the next heading of level 2 or 3. */
function docSections(doc: string): Map<string, string> {
  const sections = new Map<string, string>();
  const heading = /^### `([^`]+)`[ \t]*$/gm;
  const matches = [...doc.matchAll(heading)];
  for (const match of matches) {
    const name = match[1];
    if (name === undefined) continue;
    const start = match.index + match[0].length;
    const rest = doc.slice(start);
    const next = /^#{2,3} /m.exec(rest);
    sections.set(name, next === null ? rest : rest.slice(0, next.index));
  }
  return sections;
}

/** The first column of the doc's summary table (the one headed `| Method`), unquoted. */
function summaryTableNames(doc: string): string[] {
  const lines = doc.split('\n');
  const start = lines.findIndex((line) => line.startsWith('| Method '));
  const names: string[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const name = /^\| `([^`]+)`/.exec(line)?.[1];
    if (name !== undefined) names.push(name);
  }
  return names;
}

/** Every ```json block of a section, parsed. */
function jsonBlocks(section: string): unknown[] {
  return [...section.matchAll(/^```json\n([\s\S]*?)^```/gm)].map((m): unknown =>
    JSON.parse(m[1] ?? ''),
  );
}

describe('docs/protocol.md', () => {
  const doc = readFileSync(DOC, 'utf8');
  const sections = docSections(doc);

  test.each(allNames)('has a section for %s', (name) => {
    expect(sections.has(name), `### \`${name}\` in docs/protocol.md`).toBe(true);
  });

  it('names every method and notification in its summary table, and nothing else', () => {
    const table = summaryTableNames(doc);
    expect(
      allNames.filter((name) => !table.includes(name)),
      'missing from the table',
    ).toEqual([]);
    expect(
      table.filter((name) => !allNames.includes(name)),
      'in the table, not the protocol',
    ).toEqual([]);
  });

  it('documents no method or notification that is not in the table', () => {
    const known = new Set(allNames);
    const stale = [...sections.keys()].filter((name) => name.includes('/') && !known.has(name));
    expect(stale, 'sections without a method').toEqual([]);
  });

  test.each(methods)('shows the %s fixture as its example', (method) => {
    const fixture = readFixture(method, ['params', 'result']);
    const blocks = jsonBlocks(sections.get(method) ?? '');
    const request = blocks.map((b) => JsonRpcRequestSchema.safeParse(b).data).find(Boolean);
    expect(request?.method).toBe(method);
    expect(request?.params).toEqual(fixture['params']);
    const response = blocks.find((b) => isRecord(b) && 'result' in b);
    expect(isRecord(response) ? response['result'] : undefined).toEqual(fixture['result']);
    expect(isRecord(response) ? response['id'] : undefined).toEqual(request?.id);
  });

  test.each(notificationSchemas)('shows the %s fixture as its example', (name) => {
    const fixture = readFixture(name, ['params']);
    const blocks = jsonBlocks(sections.get(name) ?? '');
    const message = blocks.map((b) => parseJsonRpcMessage(b)).find((m) => m && 'method' in m);
    expect(message && 'method' in message ? message.method : undefined).toBe(name);
    expect(message && 'params' in message ? message.params : undefined).toEqual(fixture['params']);
  });

  test.each(reasons)('has a row for error reason %s', (reason) => {
    expect(doc).toMatch(new RegExp(`^\\|\\s*\`${reason}\`\\s*\\|`, 'm'));
  });

  it('shows every error response as the fixture of its reason', () => {
    const failures = jsonBlocks(doc)
      .map((block) => JsonRpcFailureSchema.safeParse(block).data)
      .filter((failure) => failure !== undefined);
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures) {
      const reason = HostErrorDataSchema.parse(failure.error.data).reason;
      expect(failure, `the ${reason} example`).toEqual(errorFixture(reason));
    }
  });

  it('lists no error reason that does not exist', () => {
    const errors = /^## Errors$([\s\S]*?)^## /m.exec(doc)?.[1] ?? '';
    const known = new Set<string>(reasons);
    const rows = [...errors.matchAll(/^\|\s*`([a-z][a-z-]*)`\s*\|/gm)].map((m) => m[1] ?? '');
    expect(rows.length).toBeGreaterThanOrEqual(reasons.length);
    expect(rows.filter((row) => !known.has(row))).toEqual([]);
  });
});

// Negative cases. Accepting a malformed message is the dangerous direction: it reaches a handler
// (or the UI) as a typed value it is not. Rejecting a valid one is loud and gets fixed.

const client = { name: 'switchyard-extension', version: '0.1.0' };
const long = (n: number): string => 'x'.repeat(n);
const FINGERPRINT = '7c758022a19fbab5dd41002ca48a17fb65fd0682a2c3c488fda7e78301a5283b';

const rejectedParams: ReadonlyArray<readonly [RequestMethod, string, unknown]> = [
  ['host/hello', 'no params at all', undefined],
  ['host/hello', 'a protocol version as a string', { protocolVersion: '1', client }],
  ['host/hello', 'a fractional protocol version', { protocolVersion: 1.5, client }],
  ['host/hello', 'no client', { protocolVersion: 1 }],
  [
    'host/hello',
    'a 129-character client name',
    { protocolVersion: 1, client: { ...client, name: long(129) } },
  ],
  [
    'host/hello',
    'a 65-character client version',
    { protocolVersion: 1, client: { ...client, version: long(65) } },
  ],
  ['servers/list', 'null params', null],
  ['servers/list', 'params as an array', []],
  ['servers/start', 'no server', {}],
  ['servers/start', 'an empty server name', { server: '' }],
  ['servers/start', 'a 257-character server name', { server: long(257) }],
  ['servers/stop', 'a server name as a number', { server: 7 }],
  ['servers/restart', 'params as a string', 'everything'],
  ['servers/logs', 'a zero limit', { server: 'everything', limit: 0 }],
  ['servers/logs', 'a negative limit', { server: 'everything', limit: -5 }],
  ['servers/logs', 'a fractional limit', { server: 'everything', limit: 2.5 }],
  ['servers/logs', 'a limit over 10,000', { server: 'everything', limit: 10_001 }],
  ['servers/logs', 'a limit as a string', { server: 'everything', limit: '5' }],
  ['tools/list', 'an empty server name', { server: '' }],
  ['tools/list', 'a 257-character server name', { server: long(257) }],
  ['tools/list', 'params as a string', 'everything'],
  ['tools/call', 'no name', { arguments: {} }],
  ['tools/call', 'a name as a number', { name: 42 }],
  ['tools/call', 'an empty name', { name: '' }],
  ['tools/call', 'a 257-character name', { name: long(257) }],
  ['tools/call', 'arguments as an array', { name: 'everything__echo', arguments: ['hi'] }],
  ['tools/call', 'arguments as a string', { name: 'everything__echo', arguments: '{}' }],
  ['tools/list', 'includeDenied as a string', { includeDenied: 'true' }],
  [
    'tools/call',
    'an approval without a nonce',
    { name: 'shop-db__refund_order', approval: { requestId: 'r' } },
  ],
  ['tools/call', 'an approval as a string', { name: 'shop-db__refund_order', approval: 'r:n' }],
  [
    'tools/call',
    'an approval with an empty nonce',
    { name: 'shop-db__refund_order', approval: { requestId: 'r', nonce: '' } },
  ],
  ['approvals/deny', 'no request id', {}],
  ['approvals/deny', 'an empty request id', { requestId: '' }],
  ['approvals/deny', 'a 129-character request id', { requestId: long(129) }],
  [
    'policy/set',
    'no policy (null removes a rule; absent is a mistake)',
    { tool: 'everything__echo' },
  ],
  ['policy/set', 'a policy the host does not know', { tool: 'everything__echo', policy: 'always' }],
  [
    'policy/set',
    "the listing-only state 'suspended'",
    { tool: 'everything__echo', policy: 'suspended' },
  ],
  ['policy/set', 'an empty tool', { tool: '', policy: 'deny' }],
  ['policy/set', 'a 257-character tool', { tool: long(257), policy: 'deny' }],
  ['policy/setMany', 'no rules', { rules: [] }],
  [
    'policy/setMany',
    'a policy the host does not know',
    { rules: [{ tool: 'a__b', policy: 'always' }] },
  ],
  ['servers/update', 'no args', { server: 'memory', command: 'npx', env: {}, cwd: null }],
  [
    'servers/update',
    'a url beside the command (strict)',
    { server: 'memory', command: 'npx', args: [], env: {}, cwd: null, url: 'https://x.example' },
  ],
  [
    'servers/update',
    'an env value that is not a string or null',
    { server: 'memory', command: 'npx', args: [], env: { A: 1 }, cwd: null },
  ],
  ['trust/pending', 'params as an array', []],
  ['trust/approve', 'no fingerprint', { server: 'shop-db' }],
  [
    'trust/approve',
    'an upper-case fingerprint',
    { server: 'shop-db', fingerprint: FINGERPRINT.toUpperCase() },
  ],
  [
    'trust/approve',
    'a 63-character fingerprint',
    { server: 'shop-db', fingerprint: FINGERPRINT.slice(1) },
  ],
  ['trust/approve', 'an empty server name', { server: '', fingerprint: FINGERPRINT }],
  ['trust/revoke', 'neither server nor workspace', {}],
  ['trust/revoke', 'an empty server name', { server: '' }],
  ['trust/revoke', 'an empty workspace', { workspace: '' }],
  ['trust/revoke', 'a 4,097-character workspace', { workspace: `/${long(4096)}` }],
  ['tools/list', 'a profile id with upper case', { profile: 'GitHub' }],
  ['tools/call', 'an empty profile id', { name: 'everything__echo', profile: '' }],
  ['profiles/set', 'no profile', {}],
  ['profiles/set', 'a profile without a mode', { profile: { id: 'x', name: 'X', match: [] } }],
  [
    'profiles/set',
    'a profile with a key the schema does not know',
    { profile: { id: 'x', name: 'X', match: [], mode: 'full', exlude: ['a__*'] } },
  ],
  [
    'profiles/set',
    'a match pattern without a scheme',
    { profile: { id: 'x', name: 'X', match: ['github.com/*'], mode: 'full' } },
  ],
  ['profiles/remove', 'an id that is not a slug', { id: '../default' }],
  ['profiles/resolve', 'no url', {}],
  ['profiles/resolve', 'a URL over 8,192 characters', { url: `https://x.test/${long(8_192)}` }],
  ['activity/list', 'a zero limit', { limit: 0 }],
  ['activity/list', 'a limit over 200', { limit: 201 }],
  ['activity/list', 'an empty server name', { server: '' }],
  ['activity/list', 'no event kinds', { events: [] }],
  ['activity/list', 'an event kind that does not exist', { events: ['call', 'shell'] }],
  ['activity/list', 'a cursor that is not one the host gave', { cursor: '../audit.jsonl' }],
  ['activity/list', 'a cursor with an upper-case check', { cursor: '538-B172B04138A17829' }],
  [
    'activity/list',
    'a cursor with a 16-digit offset',
    { cursor: `${'9'.repeat(16)}-b172b04138a17829` },
  ],
];

test.each(rejectedParams)('%s rejects %s', (method, _label, params) => {
  expect(paramsSchemaOf(method).safeParse(params).success).toBe(false);
});

const rejectedHostNotifications: ReadonlyArray<readonly [HostNotification, string, unknown]> = [
  ['notifications/servers/changed', 'a server name instead of a summary', { server: 'everything' }],
  ['notifications/servers/changed', 'no server', {}],
  ['notifications/tools/changed', 'a server as a number', { server: 1 }],
  ['notifications/progress', 'no request id', { progress: 1 }],
  ['notifications/progress', 'an object as request id', { requestId: {}, progress: 1 }],
  ['notifications/progress', 'progress as a string', { requestId: 1, progress: '50%' }],
  ['notifications/log', 'an unknown level', { level: 'fatal', message: 'boom' }],
  ['notifications/log', 'no message', { level: 'error' }],
];

test.each(rejectedHostNotifications)('%s rejects %s', (name, _label, params) => {
  const schema: z.ZodType = hostNotifications[name];
  expect(schema.safeParse(params).success).toBe(false);
});

const rejectedClientNotifications: ReadonlyArray<readonly [ClientNotification, string, unknown]> = [
  ['notifications/cancelled', 'no request id', { reason: 'stop' }],
  ['notifications/cancelled', 'a fractional request id', { requestId: 1.5 }],
  ['notifications/cancelled', 'a 129-character request id', { requestId: long(129) }],
  ['notifications/cancelled', 'a 1,025-character reason', { requestId: 1, reason: long(1025) }],
];

test.each(rejectedClientNotifications)('%s rejects %s', (name, _label, params) => {
  const schema: z.ZodType = clientNotifications[name];
  expect(schema.safeParse(params).success).toBe(false);
});

const rejectedEnvelopes: ReadonlyArray<readonly [string, unknown]> = [
  ['JSON-RPC 1.0', { jsonrpc: '1.0', id: 1, method: 'servers/list' }],
  ['a null id', { jsonrpc: '2.0', id: null, method: 'servers/list' }],
  ['a fractional id', { jsonrpc: '2.0', id: 1.5, method: 'servers/list' }],
  ['a 129-character id', { jsonrpc: '2.0', id: long(129), method: 'servers/list' }],
  ['an empty method', { jsonrpc: '2.0', id: 1, method: '' }],
  ['a 129-character method', { jsonrpc: '2.0', id: 1, method: long(129) }],
];

test.each(rejectedEnvelopes)('a request envelope with %s is rejected', (_label, message) => {
  expect(JsonRpcRequestSchema.safeParse(message).success).toBe(false);
  expect(parseJsonRpcMessage(message)).toBeUndefined();
});

const echoTool = {
  name: 'everything__echo',
  server: 'everything',
  tool: 'echo',
  description: 'Echoes back the input string',
  inputSchema: { type: 'object' },
  tokens: 59,
  policy: 'ask',
};

const consent = {
  server: 'shop-db',
  reason: 'workspace',
  fingerprint: FINGERPRINT,
  executable: '/usr/bin/node',
  command: 'node',
  args: ['tools/mcp/shop-db.mjs'],
  env: [['SHOP_DB_URL', '${SHOP_DB_URL}']],
  cwd: '/home/alex/src/webshop',
  provenance: 'workspace',
  workspaceRoot: '/home/alex/src/webshop',
  sourceFile: '/home/alex/src/webshop/.mcp.json',
  changes: [],
  summary: 'new server from /home/alex/src/webshop - needs approval',
  warnings: [],
  ignoredTrustClaims: [],
  remote: null,
};

const approval = {
  requestId: '98eaf1f04aac77629d6fd2db5cb59a9c',
  nonce: 'b9cd81c43969495d95af91c048d5bb64',
  server: 'shop-db',
  tool: 'refund_order',
  exposedName: 'shop-db__refund_order',
  arguments: { orderId: 'A-10483', amountCents: 1999 },
  argumentsHash: 'b367e8dfb4ea3c285dc05bf241b30b72421f5e4d6a0d3b2da073dafddfd99c83',
  warnings: [],
  changes: [],
  expiresAt: 1795987512176,
};

const rejectedResults: ReadonlyArray<readonly [string, z.ZodType, unknown]> = [
  ['an exposed name with a dot', ExposedToolSchema, { ...echoTool, name: 'everything__echo.v2' }],
  ['a 65-character exposed name', ExposedToolSchema, { ...echoTool, name: long(65) }],
  ['an empty exposed name', ExposedToolSchema, { ...echoTool, name: '' }],
  ['negative tokens', ExposedToolSchema, { ...echoTool, tokens: -1 }],
  ['an unknown server state', ServerStateSchema, { state: 'exploded' }],
  [
    'a running state without a pid',
    ServerStateSchema,
    {
      state: 'running',
      handshakeMs: 1,
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'x', version: '1' },
    },
  ],
  [
    'an unknown failure reason',
    ServerStateSchema,
    { state: 'failed', reason: 'bad-luck', message: 'x' },
  ],
  ['an unknown tool policy', ExposedToolSchema, { ...echoTool, policy: 'maybe' }],
  ['a tool without a policy', ExposedToolSchema, { ...echoTool, policy: undefined }],
  ['a needs-approval state without a consent card', ServerStateSchema, { state: 'needs-approval' }],
  [
    'a consent card with an upper-case fingerprint',
    ConsentRequestSchema,
    { ...consent, fingerprint: FINGERPRINT.toUpperCase() },
  ],
  [
    'a consent card with an unknown reason',
    ConsentRequestSchema,
    { ...consent, reason: 'trusted' },
  ],
  [
    'a consent card with env as KEY=value strings',
    ConsentRequestSchema,
    { ...consent, env: ['SHOP_DB_URL=${SHOP_DB_URL}'] },
  ],
  [
    'a launch change of a field that is not fingerprinted',
    ConsentRequestSchema,
    { ...consent, changes: [{ field: 'prefix', before: 'a', after: 'b' }] },
  ],
  ['an approval request without a nonce', ApprovalRequestSchema, { ...approval, nonce: undefined }],
  [
    'an approval request whose arguments are not an object',
    ApprovalRequestSchema,
    { ...approval, arguments: ['A-10483'] },
  ],
  [
    'a tool change of a field that is not pinned',
    ApprovalRequestSchema,
    { ...approval, changes: [{ field: 'outputSchema', before: '{}', after: '{}' }] },
  ],
  ['an unknown content block', CallToolResultSchema, { content: [{ type: 'hologram' }] }],
  [
    'a resource with neither text nor blob',
    CallToolResultSchema,
    { content: [{ type: 'resource', resource: { uri: 'file:///a' } }] },
  ],
];

test.each(rejectedResults)('a result with %s is rejected', (_label, schema, value) => {
  expect(schema.safeParse(value).success).toBe(false);
});

it('starts every rejected result from a valid one', () => {
  // Otherwise a negative case could fail for a reason other than the one it names.
  expect(ExposedToolSchema.safeParse(echoTool).success).toBe(true);
  expect(ConsentRequestSchema.safeParse(consent).success).toBe(true);
  expect(ApprovalRequestSchema.safeParse(approval).success).toBe(true);
  expect(ServerStateSchema.safeParse({ state: 'needs-approval', consent }).success).toBe(true);
});
