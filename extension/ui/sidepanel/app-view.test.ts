import { describe, expect, it } from 'vitest';
import type { ParamsOf, ResultOf } from '../../../protocol/methods';
import type { ExposedTool } from '../../../protocol/tools';
import {
  MAX_APP_HEIGHT,
  MIN_APP_HEIGHT,
  appToolName,
  frameHeight,
  messageText,
  readWholePage,
} from './app-view';

describe('frameHeight', () => {
  it.each([
    [300, 300],
    [10, MIN_APP_HEIGHT],
    [1e9, MAX_APP_HEIGHT],
    [250.6, 251],
    [Number.NaN, undefined],
    [Number.POSITIVE_INFINITY, undefined],
    ['300', undefined],
    [undefined, undefined],
  ])('%s -> %s', (requested, expected) => {
    expect(frameHeight(requested)).toBe(expected);
  });
});

function tool(server: string, name: string, visibility?: ('model' | 'app')[]): ExposedTool {
  return {
    name: `${server}__${name}`,
    server,
    tool: name,
    description: '',
    inputSchema: { type: 'object' },
    tokens: 0,
    policy: 'ask',
    ...(visibility === undefined ? {} : { ui: { visibility } }),
  };
}

describe('appToolName', () => {
  const tools = [
    tool('pdf', 'read_pdf_bytes', ['app']),
    tool('pdf', 'display_pdf', ['model', 'app']),
    tool('pdf', 'model_only', ['model']),
    tool('pdf', 'plain'),
    tool('other', 'secret', ['app']),
  ];
  it.each([
    ['read_pdf_bytes', 'pdf__read_pdf_bytes'],
    ['display_pdf', 'pdf__display_pdf'],
    ['plain', 'pdf__plain'],
    ['model_only', undefined],
    ['secret', undefined],
    ['pdf__read_pdf_bytes', undefined],
    ['', undefined],
    [42, undefined],
  ])('the pdf app asking for %j gets %s', (requested, expected) => {
    expect(appToolName(tools, 'pdf', requested)).toBe(expected);
  });
});

describe('messageText', () => {
  it('joins text blocks and drops the rest', () => {
    expect(
      messageText([
        { type: 'text', text: 'one' },
        { type: 'image', data: 'x', mimeType: 'image/png' },
        { type: 'text', text: 'two' },
        { type: 'text', text: 3 },
        null,
      ]),
    ).toBe('one\n\ntwo');
  });
  it.each([[undefined], ['text'], [{}]])('a content of %j is empty', (content) => {
    expect(messageText(content)).toBe('');
  });
  it('shows what would hide: tag characters, zero-width and bidi controls become markers', () => {
    // "IGNORE" in Unicode tag characters: invisible in the box, read by the model as the user's.
    const tags = String.fromCodePoint(...Array.from('IGNORE', (c) => 0xe0000 + c.charCodeAt(0)));
    const text = messageText([{ type: 'text', text: `Summarize\u200B${tags} this \u202Eetirw` }]);
    expect(text).not.toMatch(/[\u{E0000}-\u{E007F}\u200B\u202E]/u);
    expect(text).toMatch(/^Summarize⟦U\+200B/);
  });
});

describe('readWholePage', () => {
  const part = (n: number, parts: number, hash: string, text: string): ResultOf<'apps/read'> => ({
    server: 'pdf',
    uri: 'ui://a',
    hash,
    bytes: 6,
    part: n,
    parts,
    text,
    csp: { connectDomains: [], resourceDomains: [] },
    ignored: [],
    permissions: [],
  });

  it('joins the parts of one read', async () => {
    const asked: ParamsOf<'apps/read'>[] = [];
    const page = await readWholePage(
      (params) => {
        asked.push(params);
        const n = params.part ?? 0;
        return Promise.resolve(part(n, 3, 'h', ['ab', 'cd', 'ef'][n] ?? ''));
      },
      'pdf',
      'ui://a',
      'work',
    );
    expect(page.html).toBe('abcdef');
    expect(asked.map((p) => p.part)).toEqual([undefined, 1, 2]);
    expect(asked.every((p) => p.profile === 'work')).toBe(true);
  });

  it('starts over once when the page changed between parts, then gives up', async () => {
    let reads = 0;
    const changing = (params: ParamsOf<'apps/read'>) => {
      if ((params.part ?? 0) === 0) reads += 1;
      return Promise.resolve(part(params.part ?? 0, 2, `h${reads}-${params.part ?? 0}`, 'x'));
    };
    await expect(readWholePage(changing, 'pdf', 'ui://a', undefined)).rejects.toThrow(
      'kept changing',
    );
    expect(reads).toBe(2);
  });
});
