import { describe, expect, it } from 'vitest';
import { readElicitation } from './elicitation-form';

const form = (properties: Record<string, unknown>, required?: string[]) => ({
  message: 'Tell me',
  requestedSchema: { type: 'object', properties, ...(required ? { required } : {}) },
});

describe('readElicitation', () => {
  it('reads each field type MCP allows', () => {
    const read = readElicitation(
      form(
        {
          name: { type: 'string', title: 'Name', minLength: 1 },
          age: { type: 'integer', minimum: 0, default: 30 },
          score: { type: 'number' },
          ok: { type: 'boolean', default: true },
          pet: { type: 'string', enum: ['p1', 'p2'], enumNames: ['Cat', 'Dog'] },
          hero: { type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }] },
          tools: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 1 },
          fish: { type: 'array', items: { anyOf: [{ const: 'f1', title: 'Tuna' }] } },
        },
        ['name'],
      ),
    );
    expect(read.ok).toBe(true);
    if (!read.ok || read.ask.mode !== 'form') return;
    expect(read.ask.fields).toEqual([
      { name: 'name', required: true, title: 'Name', kind: 'text', minLength: 1 },
      { name: 'age', required: false, kind: 'number', integer: true, minimum: 0, default: 30 },
      { name: 'score', required: false, kind: 'number', integer: false },
      { name: 'ok', required: false, kind: 'boolean', default: true },
      {
        name: 'pet',
        required: false,
        kind: 'choice',
        options: [
          { value: 'p1', label: 'Cat' },
          { value: 'p2', label: 'Dog' },
        ],
      },
      {
        name: 'hero',
        required: false,
        kind: 'choice',
        options: [{ value: 'h1', label: 'Superman' }],
      },
      {
        name: 'tools',
        required: false,
        kind: 'choices',
        options: [
          { value: 'a', label: 'a' },
          { value: 'b', label: 'b' },
        ],
        maxItems: 1,
      },
      { name: 'fish', required: false, kind: 'choices', options: [{ value: 'f1', label: 'Tuna' }] },
    ]);
  });

  it('drops a text default with a character the field would not show', () => {
    const read = readElicitation(
      form({
        plain: { type: 'string', default: 'yes' },
        hidden: { type: 'string', default: 'ok\u202Eon' },
      }),
    );
    expect(read.ok).toBe(true);
    if (!read.ok || read.ask.mode !== 'form') return;
    expect(read.ask.fields).toEqual([
      { name: 'plain', required: false, kind: 'text', default: 'yes' },
      { name: 'hidden', required: false, kind: 'text' },
    ]);
  });

  it('keeps only the defaults of a multiple choice that are among its choices', () => {
    const read = readElicitation(
      form({
        tools: {
          type: 'array',
          items: { type: 'string', enum: ['a', 'b'] },
          default: ['b', 'ghost'],
        },
      }),
    );
    expect(read.ok).toBe(true);
    if (!read.ok || read.ask.mode !== 'form') return;
    // "ghost" has no box to untick: kept, it would make every submit fail.
    expect(read.ask.fields[0]).toMatchObject({ kind: 'choices', default: ['b'] });
  });

  it('gates the server’s words', () => {
    const read = readElicitation({
      message: 'Please \u202eenter\u202c your \u001b[31mtoken',
      requestedSchema: { type: 'object', properties: { a: { type: 'string', title: 'x\u200by' } } },
    });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.ask.message).not.toContain('\u202e');
    expect(read.ask.message).not.toContain('\u001b');
    expect(read.ask.mode === 'form' ? read.ask.fields[0]?.title : '').not.toContain('\u200b');
  });

  it.each([
    ['a nested object', form({ a: { type: 'object', properties: {} } }), /field 'a' is not/],
    ['an array of numbers', form({ a: { type: 'array', items: { type: 'number' } } }), /field 'a'/],
    [
      'a choice with hidden characters',
      form({ a: { type: 'string', enum: ['ok\u200b'] } }),
      /hidden/,
    ],
    ['a field name with hidden characters', form({ 'a\u202e': { type: 'string' } }), /hidden/],
    ['no schema at all', { message: 'hi' }, /neither a form nor a URL/],
    [
      'too many fields',
      form(Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`f${i}`, { type: 'string' }]))),
      /more than 64 fields/,
    ],
    [
      'a javascript: URL',
      { mode: 'url', message: 'm', url: 'javascript:alert(1)', elicitationId: 'e' },
      /not https/,
    ],
    [
      'plain http off loopback',
      { mode: 'url', message: 'm', url: 'http://evil.example/', elicitationId: 'e' },
      /not https/,
    ],
    [
      'a URL with credentials',
      { mode: 'url', message: 'm', url: 'https://u:p@x.example/', elicitationId: 'e' },
      /user name/,
    ],
  ])('refuses %s', (_, params, problem) => {
    const read = readElicitation(params);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.problem).toMatch(problem);
  });

  it('reads a URL request with its origin shown first', () => {
    expect(
      readElicitation({
        mode: 'url',
        message: 'Link your account',
        url: 'https://auth.example.com/link?x=1',
        elicitationId: 'e1',
      }),
    ).toEqual({
      ok: true,
      ask: {
        mode: 'url',
        message: 'Link your account',
        url: 'https://auth.example.com/link?x=1',
        origin: 'https://auth.example.com',
        elicitationId: 'e1',
      },
    });
    expect(
      readElicitation({
        mode: 'url',
        message: 'm',
        url: 'http://127.0.0.1:9/x',
        elicitationId: 'e',
      }).ok,
    ).toBe(true);
  });

  it('reads a 2026-07-28 URL request, which has no elicitationId', () => {
    expect(
      readElicitation({ mode: 'url', message: 'Link', url: 'https://auth.example.com/x' }),
    ).toEqual({
      ok: true,
      ask: {
        mode: 'url',
        message: 'Link',
        url: 'https://auth.example.com/x',
        origin: 'https://auth.example.com',
      },
    });
  });
});
