import { describe, expect, it } from 'vitest';
import { ContentBlockSchema } from '../../protocol/tools';
import { normalizeCallResult } from './call-result';

describe('normalizeCallResult', () => {
  it.each([
    ['a text block', { type: 'text', text: 'hello' }],
    [
      'a text block with extra members',
      { type: 'text', text: 'hi', annotations: { x: 1 }, _meta: {} },
    ],
    ['an image block', { type: 'image', data: 'aGk=', mimeType: 'image/png' }],
    ['a resource link', { type: 'resource_link', uri: 'file:///a', name: 'a' }],
  ])('keeps %s as ContentBlockSchema reads it', (_label, block) => {
    expect(normalizeCallResult({ content: [block] }).content).toEqual([
      ContentBlockSchema.parse(block),
    ]);
  });

  it.each([
    ['text that is not a string', { type: 'text', text: 42 }, "'text'"],
    ['text missing', { type: 'text' }, "'text'"],
    ['an unknown type', { type: 'hologram', text: 'x' }, "'hologram'"],
    ['an array', ['text', 'x'], 'a malformed'],
    ['null', null, 'a malformed'],
  ])('replaces %s with a visible note', (_label, block, described) => {
    expect(normalizeCallResult({ content: [block] }).content).toEqual([
      {
        type: 'text',
        text: `[Switchyard: omitted ${described} content block the host cannot relay]`,
      },
    ]);
  });

  it('copies a text block instead of passing the server object on', () => {
    const block = { type: 'text', text: 'hello', extra: 'kept out' };
    const [out] = normalizeCallResult({ content: [block] }).content;
    expect(out).not.toBe(block);
    expect(out).toEqual({ type: 'text', text: 'hello' });
  });

  it('reads isError strictly and structuredContent only as an object', () => {
    expect(normalizeCallResult({ content: [], isError: 'yes' }).isError).toBe(true);
    expect(normalizeCallResult({ content: [], isError: false }).isError).toBeUndefined();
    expect(normalizeCallResult({ content: [], structuredContent: [1] }).structuredContent).toBe(
      undefined,
    );
    expect(normalizeCallResult({ content: [], structuredContent: { a: 1 } })).toEqual({
      content: [],
      structuredContent: { a: 1 },
    });
  });
});
