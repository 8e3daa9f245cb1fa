import { describe, expect, it } from 'vitest';
import type { Prompt } from '../../../protocol/resources';
import { filledArguments, filterPrompts, missingArguments, promptUse } from './prompt-use';

describe('a prompt in the composer', () => {
  it('is the user’s text when the server wrote one voice', () => {
    expect(
      promptUse('wiki', [
        { role: 'user', content: { type: 'text', text: 'Review a.ts' } },
        { role: 'user', content: { type: 'text', text: 'Be brief.' } },
      ]),
    ).toEqual({ text: 'Review a.ts\n\nBe brief.', attachments: [], omitted: 0 });
  });

  it('says who speaks when the prompt scripts both sides', () => {
    expect(
      promptUse('wiki', [
        { role: 'user', content: { type: 'text', text: 'Hi' } },
        { role: 'assistant', content: { type: 'text', text: 'Hello' } },
      ]).text,
    ).toBe('User: Hi\n\nAssistant: Hello');
  });

  it('attaches embedded resources once, and counts what it cannot use', () => {
    const use = promptUse('demo', [
      { role: 'user', content: { type: 'resource', resource: { uri: 'demo://1', text: 'x' } } },
      { role: 'user', content: { type: 'resource_link', uri: 'demo://1', name: 'One' } },
      { role: 'user', content: { type: 'image', data: 'AA', mimeType: 'image/png' } },
    ]);
    expect(use.attachments).toEqual([{ server: 'demo', uri: 'demo://1', name: 'demo://1' }]);
    expect(use.omitted).toBe(1);
  });

  const prompts: Prompt[] = [
    { server: 'gh', name: 'review', description: 'Review a PR', arguments: [] },
    { server: 'wiki', name: 'summarize', arguments: [{ name: 'page', required: true }] },
  ];

  it.each([
    ['', ['review', 'summarize']],
    ['gh:', ['review']],
    ['pr review', ['review']],
    ['wiki:sum', ['summarize']],
    ['nothing', []],
  ])('finds prompts for "%s"', (query, names) => {
    expect(filterPrompts(prompts, query).map((p) => p.name)).toEqual(names);
  });

  it('names the required arguments left empty, and sends only filled ones', () => {
    const [, summarize] = prompts;
    if (summarize === undefined) throw new Error('fixture');
    expect(missingArguments(summarize, { page: '  ' })).toEqual(['page']);
    expect(missingArguments(summarize, { page: 'Home' })).toEqual([]);
    expect(filledArguments({ page: 'Home', lang: '' })).toEqual({ page: 'Home' });
  });
});
