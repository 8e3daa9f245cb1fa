import { describe, expect, it } from 'vitest';
import type { ElicitationField } from '../../../protocol/elicitation';
import { expiresIn, initialDraft, questionHeading, submit, textInputType } from './question-form';

const FIELDS: ElicitationField[] = [
  { kind: 'text', name: 'name', required: true },
  { kind: 'number', name: 'age', required: false, integer: true, minimum: 0, default: 30 },
  { kind: 'boolean', name: 'ok', required: false },
  {
    kind: 'choice',
    name: 'pet',
    required: false,
    options: [
      { value: 'p1', label: 'Cat' },
      { value: 'p2', label: 'Dog' },
    ],
  },
  {
    kind: 'choices',
    name: 'tools',
    required: false,
    options: [{ value: 'a', label: 'A' }],
    default: ['a'],
  },
];

describe('the question form', () => {
  it('opens with the defaults filled in, as text for number inputs', () => {
    expect(initialDraft(FIELDS)).toEqual({ name: '', age: '30', ok: false, pet: '', tools: ['a'] });
  });

  it('sends typed values: numbers parsed, an unchosen choice left out', () => {
    const draft = { ...initialDraft(FIELDS), name: 'Ada', age: ' 36 ' };
    expect(submit(FIELDS, draft)).toEqual({
      ok: true,
      content: { name: 'Ada', age: 36, ok: false, tools: ['a'] },
    });
  });

  it.each([
    ['a required field left empty', { name: '' }, { name: 'is required' }],
    ['a number that is not one', { name: 'Ada', age: '3x' }, { age: 'must be a number' }],
    ['hex is not a number here', { name: 'Ada', age: '0x10' }, { age: 'must be a number' }],
    [
      'a fraction for a whole number',
      { name: 'Ada', age: '3.5' },
      { age: 'must be a whole number' },
    ],
    ['below the minimum', { name: 'Ada', age: '-1' }, { age: 'must be at least 0' }],
  ])('refuses %s, naming the field', (_, change, problems) => {
    expect(submit(FIELDS, { ...initialDraft(FIELDS), ...change })).toEqual({ ok: false, problems });
  });

  it('says who asks and what the inputs are', () => {
    const base = { id: '1', server: 'github', message: 'm', expiresAt: 0 };
    expect(questionHeading({ ...base, mode: 'form', fields: [] })).toBe('github asks you');
    expect(
      questionHeading({
        ...base,
        mode: 'url',
        url: 'https://x.example/',
        origin: 'https://x.example',
      }),
    ).toBe('github asks you to open a page');
    expect(textInputType({ kind: 'text', name: 'e', required: false, format: 'email' })).toBe(
      'email',
    );
    expect(textInputType({ kind: 'text', name: 'e', required: false, format: 'date-time' })).toBe(
      'text',
    );
    expect(expiresIn(9 * 60_000, 0)).toBe('Expires in 9 min');
    expect(expiresIn(40_000, 0)).toBe('Expires in 40 s');
    expect(expiresIn(0, 5_000)).toBe('Expires in 0 s');
  });
});
