import { describe, expect, it } from 'vitest';
import { MAX_LISTED_PER_SERVER } from '../../protocol/resources';
import { MAX_CURSOR_CHARS } from '../shared/tool-definition';
import {
  collectPages,
  completionValues,
  parsePrompt,
  parseResource,
  parseTemplate,
  promptMessages,
  readContents,
} from './server-features';

describe('parseResource', () => {
  it.each([
    ['a plain resource', { uri: 'a://1', name: 'One' }, { uri: 'a://1', name: 'One' }],
    ['no name: named by its uri', { uri: 'a://2' }, { uri: 'a://2', name: 'a://2' }],
    [
      'control characters made visible, not kept',
      { uri: 'a://3', name: 'x\u001b[31my' },
      { uri: 'a://3', name: expect.not.stringContaining('\u001b') as unknown },
    ],
    ['a size kept', { uri: 'a://4', name: 'n', size: 10 }, { uri: 'a://4', name: 'n', size: 10 }],
  ])('%s', (_, raw, expected) => {
    expect(parseResource(raw)).toEqual(expected);
  });

  it.each([
    ['no uri', { name: 'x' }],
    ['a uri that is not a string', { uri: 7 }],
    ['an empty uri', { uri: '' }],
    ['a negative size', { uri: 'a://1', size: -1 }],
    ['not an object', 'a://1'],
    // The uri goes back to the server in resources/read: a gated copy would name nothing there.
    ['a uri with a hidden character', { uri: 'a://pay\u200Bments' }],
    ['a uri with a token the gate redacts', { uri: `a://x?key=ghp_${'a1B2'.repeat(9)}` }],
  ])('rejects %s', (_, raw) => {
    expect(parseResource(raw)).toBeUndefined();
  });

  it('caps a long description with the truncation marker', () => {
    const parsed = parseResource({ uri: 'a://1', description: 'd'.repeat(10_000) });
    expect(parsed?.description?.length).toBeLessThanOrEqual(2_000);
    expect(parsed?.description).toMatch(/truncated/);
  });
});

describe('parseTemplate and parsePrompt', () => {
  it('names a template by its uri template when it has no name', () => {
    expect(parseTemplate({ uriTemplate: 'f:///{p}' })).toEqual({
      uriTemplate: 'f:///{p}',
      variables: ['p'],
      name: 'f:///{p}',
    });
    expect(parseTemplate({ name: 'x' })).toBeUndefined();
  });

  it('skips a template nobody can fill in', () => {
    expect(parseTemplate({ uriTemplate: 'f:///{p', name: 'broken' })).toBeUndefined();
  });

  it('skips a template or prompt whose name goes back to the server changed by the gate', () => {
    expect(parseTemplate({ uriTemplate: 'f:///{p}\u202E' })).toBeUndefined();
    expect(parsePrompt({ name: 'review\u200B' })).toBeUndefined();
    expect(parsePrompt({ name: 'p', arguments: [{ name: 'a\u0007' }] })).toBeUndefined();
  });

  it('skips a prompt whose arguments cannot be read, keeps one without arguments', () => {
    expect(parsePrompt({ name: 'p', arguments: [{ name: 'a' }, { nope: 1 }] })).toBeUndefined();
    expect(parsePrompt({ name: 'p' })).toEqual({ name: 'p', arguments: [] });
    expect(parsePrompt({ name: 'p', arguments: [{ name: 'a', required: true }] })).toEqual({
      name: 'p',
      arguments: [{ name: 'a', required: true }],
    });
  });
});

describe('collectPages', () => {
  it('follows cursors to the end', async () => {
    const pages: Record<string, { items: unknown[]; nextCursor?: string }> = {
      start: { items: [1, 2], nextCursor: 'b' },
      b: { items: [3], nextCursor: 'c' },
      c: { items: [4] },
    };
    const paged = await collectPages(
      (cursor) => Promise.resolve(pages[cursor ?? 'start'] ?? { items: [] }),
      (value) => (typeof value === 'number' ? value : undefined),
    );
    expect(paged).toEqual({ items: [1, 2, 3, 4], skipped: 0, truncated: false });
  });

  it('stops at a cursor it has seen (a server looping forever)', async () => {
    let calls = 0;
    const paged = await collectPages(
      () => {
        calls += 1;
        return Promise.resolve({ items: [calls], nextCursor: 'same' });
      },
      (value) => value,
    );
    expect(calls).toBe(2);
    expect(paged.truncated).toBe(false);
  });

  it('does not follow or keep a cursor longer than MAX_CURSOR_CHARS', async () => {
    const asked: Array<string | undefined> = [];
    const paged = await collectPages(
      (cursor) => {
        asked.push(cursor);
        return Promise.resolve({
          items: [asked.length],
          nextCursor: 'c'.repeat(MAX_CURSOR_CHARS + 1),
        });
      },
      (value) => value,
    );
    expect(asked).toEqual([undefined]);
    expect(paged).toEqual({ items: [1], skipped: 0, truncated: true });
  });

  it('follows a cursor of exactly MAX_CURSOR_CHARS', async () => {
    const long = 'c'.repeat(MAX_CURSOR_CHARS);
    const paged = await collectPages(
      (cursor) =>
        Promise.resolve(cursor === long ? { items: [2] } : { items: [1], nextCursor: long }),
      (value) => value,
    );
    expect(paged).toEqual({ items: [1, 2], skipped: 0, truncated: false });
  });

  it('keeps at most MAX_LISTED_PER_SERVER items and says it cut the listing', async () => {
    let n = 0;
    const paged = await collectPages(
      () =>
        Promise.resolve({ items: Array.from({ length: 500 }, () => n++), nextCursor: String(n) }),
      (value) => value,
    );
    expect(paged.items).toHaveLength(MAX_LISTED_PER_SERVER);
    expect(paged.truncated).toBe(true);
  });

  it('counts what failed validation', async () => {
    const paged = await collectPages(
      () => Promise.resolve({ items: [1, 'x', 2, null] }),
      (value) => (typeof value === 'number' ? value : undefined),
    );
    expect(paged).toEqual({ items: [1, 2], skipped: 2, truncated: false });
  });
});

describe('contents, messages and completions', () => {
  it('turns a malformed read entry into a visible note', () => {
    const blocks = readContents({ contents: [{ uri: 'a://1', text: 'hi' }, { uri: 3 }] }, 'a://1');
    expect(blocks).toEqual([
      { type: 'resource', resource: { uri: 'a://1', text: 'hi' } },
      {
        type: 'resource',
        resource: {
          uri: 'a://1',
          text: '[Switchyard: omitted a malformed resource entry the server sent]',
        },
      },
    ]);
  });

  it('relays only the roles MCP has', () => {
    const messages = promptMessages({
      messages: [
        { role: 'assistant', content: { type: 'text', text: 'a' } },
        { role: 'system', content: { type: 'text', text: 'b' } },
      ],
    });
    expect(messages.map((m) => m.role)).toEqual(['assistant', 'user']);
    expect(messages[1]?.content).toEqual({
      type: 'text',
      text: '[Switchyard: omitted a prompt message the host cannot relay]',
    });
  });

  it('keeps string completions only, at most 100, and drops a malformed total', () => {
    const result = completionValues({
      completion: { values: [...Array.from({ length: 150 }, (_, i) => `v${i}`), 7], total: -1 },
    });
    expect(result.values).toHaveLength(100);
    expect(result).not.toHaveProperty('total');
    expect(completionValues({})).toEqual({ values: [] });
  });
});
