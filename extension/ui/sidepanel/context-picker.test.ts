import { describe, expect, it } from 'vitest';
import type { Resource, ResourceTemplate } from '../../../protocol/resources';
import {
  blankVariables,
  choiceKey,
  filledName,
  filterContext,
  resourceDetail,
  startsMention,
  templateDetail,
  type ContextChoice,
} from './context-picker';

const R = (server: string, name: string, extra: Partial<Resource> = {}): Resource => ({
  server,
  uri: `${server}://${name}`,
  name,
  ...extra,
});

const T = (server: string, name: string, uriTemplate: string, variables: string[]) =>
  ({ server, name, uriTemplate, variables }) satisfies ResourceTemplate;

const named = (choice: ContextChoice): string =>
  choice.kind === 'resource' ? choice.resource.name : `${choice.template.name} (template)`;

describe('the context picker', () => {
  const all: ContextChoice[] = [
    R('wiki', 'Onboarding', { description: 'How to start' }),
    R('db', 'orders schema', { mimeType: 'text/sql' }),
    R('db', 'customers schema'),
  ].map((resource) => ({ kind: 'resource', resource }));
  const withTemplates: ContextChoice[] = [
    ...all,
    { kind: 'template', template: T('db', 'table schema', 'db://schema/{table}', ['table']) },
    { kind: 'template', template: T('wiki', 'Onboarding', 'wiki://{page}', ['page']) },
  ];

  it.each([
    ['everything, by server then name', '', ['customers schema', 'orders schema', 'Onboarding']],
    ['every word, in any order', 'schema ord', ['orders schema']],
    ['case-insensitively, the description too', 'START', ['Onboarding']],
    ['by server', 'wiki', ['Onboarding']],
    ['by address', 'db://cust', ['customers schema']],
    ['nothing', 'nope', []],
  ])('finds %s', (_, query, names) => {
    expect(filterContext(all, query).map(named)).toEqual(names);
  });

  it.each([
    [
      'templates beside resources, a resource first when names tie',
      '',
      [
        'customers schema',
        'orders schema',
        'table schema (template)',
        'Onboarding',
        'Onboarding (template)',
      ],
    ],
    ['a template by its URI template', 'schema/{', ['table schema (template)']],
    ['a template by its server', 'wiki', ['Onboarding', 'Onboarding (template)']],
  ])('finds %s', (_, query, names) => {
    expect(filterContext(withTemplates, query).map(named)).toEqual(names);
  });

  it('keys a template apart from a resource of the same address', () => {
    const keys = withTemplates.map(choiceKey);
    expect(new Set(keys).size).toBe(keys.length);
    const resource: ContextChoice = { kind: 'resource', resource: R('w', 'x', { uri: 'w://{p}' }) };
    const template: ContextChoice = { kind: 'template', template: T('w', 'x', 'w://{p}', ['p']) };
    expect(choiceKey(resource)).not.toBe(choiceKey(template));
  });

  it('says where a template comes from and what it makes', () => {
    expect(templateDetail({ ...T('db', 'x', 'db://{t}', ['t']), mimeType: 'text/sql' })).toBe(
      'db · db://{t} · text/sql',
    );
  });

  it.each([
    ['the values that tell fillings apart', { id: ' 7 ' }, 'Item (id: 7)'],
    ['nothing filled in: the name alone', {}, 'Item'],
  ])('names a filled-in chip with %s', (_, values, name) => {
    expect(filledName(T('s', 'Item', 's://{id}', ['id']), values)).toBe(name);
  });

  it.each([
    ['every variable blank', {}, ['a', 'b']],
    ['whitespace is blank', { a: '1', b: '  ' }, ['b']],
    ['all filled in', { a: '1', b: '2' }, []],
  ])('finds the blank variables: %s', (_, values, blank) => {
    expect(blankVariables(T('s', 'n', 's://{a}/{b}', ['a', 'b']), values)).toEqual(blank);
  });

  it('says where a resource comes from and what it is', () => {
    expect(resourceDetail(R('db', 'x', { mimeType: 'text/plain', size: 2048 }))).toBe(
      'db · db://x · text/plain · 2 KB',
    );
  });

  it.each([
    ['@ at the start', '@', 1, true],
    ['@ after a space', 'look at @', 9, true],
    ['@ after a newline', 'a\n@', 3, true],
    ['an email address', 'ada@', 4, false],
    ['no @', 'abc', 3, false],
  ])('opens on %s: %s', (_, text, caret, opens) => {
    expect(startsMention(text, caret)).toBe(opens);
  });
});
