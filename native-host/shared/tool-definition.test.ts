import { describe, expect, it } from 'vitest';
import {
  MAX_TOOL_DEFINITION_CHARS,
  MAX_TOOL_DEFINITION_DEPTH,
  appUiOf,
  parseToolDefinition,
} from './tool-definition';

describe('appUiOf (MCP Apps _meta.ui)', () => {
  const both = { model: true, app: true };
  it.each([
    ['nothing', undefined, undefined],
    ['no ui', { other: 1 }, undefined],
    ['a page', { ui: { resourceUri: 'ui://a/b.html' } }, { resourceUri: 'ui://a/b.html', ...both }],
    [
      'the older flat key',
      { 'ui/resourceUri': 'ui://a/b.html' },
      { resourceUri: 'ui://a/b.html', ...both },
    ],
    [
      'app only',
      { ui: { visibility: ['app'] } },
      { resourceUri: undefined, model: false, app: true },
    ],
    [
      'model only',
      { ui: { visibility: ['model'] } },
      { resourceUri: undefined, model: true, app: false },
    ],
    [
      'an empty list',
      { ui: { visibility: [] } },
      { resourceUri: undefined, model: false, app: false },
    ],
    [
      'a malformed list',
      { ui: { resourceUri: 'ui://a', visibility: 'app' } },
      { resourceUri: 'ui://a', ...both },
    ],
    [
      'a list with a non-string',
      { ui: { resourceUri: 'ui://a', visibility: ['app', 1] } },
      { resourceUri: 'ui://a', ...both },
    ],
    [
      'a page that is not ui://',
      { ui: { resourceUri: 'https://x.test/a.html' } },
      { resourceUri: undefined, ...both },
    ],
    ['a malformed ui', { ui: 'x', 'ui/resourceUri': 7 }, undefined],
  ])('%s', (_, meta, expected) => {
    expect(appUiOf(meta)).toEqual(expected);
  });

  it('a malformed _meta costs the tool its app, not its listing', () => {
    const parsed = parseToolDefinition({ name: 't', inputSchema: { type: 'object' }, _meta: 'x' });
    expect(parsed.ok && parsed.tool.ui).toBe(undefined);
  });
});

describe('parseToolDefinition', () => {
  /** A tool whose one property's default is an array nested to make the tool `levels` deep. */
  const toolOfDepth = (levels: number) => {
    // tool > inputSchema > properties > a > default: the default array is level 5.
    let value: unknown = [];
    for (let level = 5; level < levels; level += 1) value = [value];
    return { name: 'deep', inputSchema: { type: 'object', properties: { a: { default: value } } } };
  };

  it('skips a tool nested past the limit, by name, without walking it recursively', () => {
    expect(parseToolDefinition(toolOfDepth(MAX_TOOL_DEFINITION_DEPTH)).ok).toBe(true);
    expect(parseToolDefinition(toolOfDepth(MAX_TOOL_DEFINITION_DEPTH + 1))).toEqual({
      ok: false,
      name: 'deep',
      problem: `tool: nested deeper than ${String(MAX_TOOL_DEFINITION_DEPTH)} levels`,
    });
    // Deep enough to overflow any recursive walk of the host's (16 KB of JSON).
    expect(parseToolDefinition(toolOfDepth(100_000)).ok).toBe(false);
  });

  it('skips a tool whose definition is too large for its page of the listing, by name', () => {
    const sized = (chars: number) => {
      const base = { name: 'big', title: '', inputSchema: { type: 'object' } };
      return { ...base, title: 'x'.repeat(chars - JSON.stringify(base).length) };
    };
    expect(JSON.stringify(sized(MAX_TOOL_DEFINITION_CHARS))).toHaveLength(
      MAX_TOOL_DEFINITION_CHARS,
    );
    expect(parseToolDefinition(sized(MAX_TOOL_DEFINITION_CHARS)).ok).toBe(true);
    const parsed = parseToolDefinition(sized(600_000));
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.name).toBe('big');
    expect(parsed.problem).toMatch(/600000 characters of JSON, more than the 65536/);
  });
});
