import { describe, expect, test } from 'vitest';
import type { ExposedTool } from '../../protocol/tools';
import { cliHome } from '../testing/cli-home';
import { parseToolsArgs, tools, toolsText } from './tools';

function tool(name: string, policy: ExposedTool['policy'], tokens: number): ExposedTool {
  return {
    name: `files__${name}`,
    server: 'files',
    tool: name,
    description: `${name} things.\nMore detail.`,
    inputSchema: { type: 'object' },
    tokens,
    policy,
  };
}

describe('toolsText', () => {
  const listing = {
    tools: [tool('read', 'allow', 100), tool('write', 'ask', 120), tool('delete', 'deny', 90)],
    tokens: { total: 220, byServer: { files: 220 } },
  };
  const lines = toolsText(listing).split('\n');

  test('every row has a cell under every heading, the policy among them', () => {
    expect(lines[0]).toMatch(/^TOOL\s+SERVER\s+POLICY\s+TOKENS\s+DESCRIPTION$/);
    expect(lines[1]).toMatch(/^files__read\s+files\s+allow\s+100\s+read things\.$/);
    expect(lines[2]).toMatch(/^files__write\s+files\s+ask\s+120\s+write things\.$/);
    expect(lines[3]).toMatch(/^files__delete\s+files\s+deny\s+-\s+delete things\.$/);
  });

  test('the summary counts what the model is sent, and the denied tools apart', () => {
    expect(lines.at(-2)).toBe(
      '2 tools sent to the model, 220 tokens (files 220); 1 denied, not sent',
    );
  });

  test('no denied note when nothing is denied', () => {
    const text = toolsText({
      tools: [tool('read', 'allow', 100)],
      tokens: { total: 100, byServer: { files: 100 } },
    });
    expect(text.trimEnd().split('\n').at(-1)).toBe(
      '1 tool sent to the model, 100 tokens (files 100)',
    );
  });
});

// `--server --json` used to ask for a server named '--json', and a server that is not configured
// ended in a HostError's stack trace instead of its message.
describe('parseToolsArgs', () => {
  test.each<[readonly string[], ReturnType<typeof parseToolsArgs>]>([
    [[], { ok: true, server: undefined, json: false }],
    [['--json', '--server', 'memory'], { ok: true, server: 'memory', json: true }],
    [['--server=memory'], { ok: true, server: 'memory', json: false }],
    [['--server'], { ok: false, error: '--server needs a server name, e.g. --server memory' }],
    [
      ['--server', '--json'],
      { ok: false, error: '--server needs a server name, e.g. --server memory' },
    ],
    [['--server='], { ok: false, error: '--server needs a server name, e.g. --server memory' }],
    [['memory'], { ok: false, error: "unknown argument 'memory'" }],
    [['--jsno'], { ok: false, error: "unknown argument '--jsno'" }],
  ])('%j', (argv, expected) => {
    expect(parseToolsArgs(argv)).toEqual(expected);
  });
});

describe('switchyard tools --server', () => {
  test('a server that is not configured is named, exit 1, without a stack trace', async () => {
    const { io, out, err } = cliHome('{"mcpServers": {}}');
    expect(await tools(io, ['--server', 'nope'])).toBe(1);
    expect(out.join('')).toBe('');
    expect(err.join('')).toBe(
      "switchyard tools: No server named 'nope' is configured. Add it to config.json or from the popup.\n",
    );
  });
});
