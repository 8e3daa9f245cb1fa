import { describe, expect, it } from 'vitest';
import { checkAnswer, initialValues, type ElicitationField } from './elicitation';

const text = (
  over: Partial<Extract<ElicitationField, { kind: 'text' }>> = {},
): ElicitationField => ({
  kind: 'text',
  name: 't',
  required: false,
  ...over,
});
const number = (
  over: Partial<Extract<ElicitationField, { kind: 'number' }>> = {},
): ElicitationField => ({
  kind: 'number',
  name: 'n',
  required: false,
  integer: false,
  ...over,
});
const options = [
  { value: 'a', label: 'A' },
  { value: 'b', label: 'B' },
  { value: 'c', label: 'C' },
];

describe('checkAnswer', () => {
  it.each<[string, ElicitationField, unknown, string | undefined]>([
    ['text', text(), 'hello', undefined],
    ['text: a number is refused', text(), 5, 'must be text'],
    ['text: too short', text({ minLength: 3 }), 'ab', 'must be at least 3 characters'],
    ['text: too long', text({ maxLength: 2 }), 'abc', 'must be at most 2 characters'],
    ['email', text({ format: 'email' }), 'ada@example.com', undefined],
    ['email: not one', text({ format: 'email' }), 'ada', 'is not an email address'],
    ['uri', text({ format: 'uri' }), 'https://example.com/x', undefined],
    ['uri: not one', text({ format: 'uri' }), 'not a url', 'is not a URL'],
    ['date', text({ format: 'date' }), '1815-12-10', undefined],
    ['date: not one', text({ format: 'date' }), '10/12/1815', 'is not a date (YYYY-MM-DD)'],
    ['date: not a real day', text({ format: 'date' }), '2026-13-45', 'is not a date (YYYY-MM-DD)'],
    ['date-time', text({ format: 'date-time' }), '2026-12-02T10:00:00Z', undefined],
    ['number', number(), 3.5, undefined],
    ['number: text refused', number(), '3', 'must be a number'],
    ['number: NaN refused', number(), Number.NaN, 'must be a number'],
    ['integer: a fraction refused', number({ integer: true }), 3.5, 'must be a whole number'],
    ['number: below minimum', number({ minimum: 1 }), 0, 'must be at least 1'],
    ['number: above maximum', number({ maximum: 1 }), 2, 'must be at most 1'],
    ['boolean', { kind: 'boolean', name: 'b', required: false }, false, undefined],
    [
      'boolean: text refused',
      { kind: 'boolean', name: 'b', required: false },
      'yes',
      'must be yes or no',
    ],
    ['choice', { kind: 'choice', name: 'c', required: false, options }, 'b', undefined],
    [
      'choice: not offered',
      { kind: 'choice', name: 'c', required: false, options },
      'z',
      'must be one of the choices offered',
    ],
    ['choices', { kind: 'choices', name: 'm', required: false, options }, ['a', 'c'], undefined],
    [
      'choices: one not offered',
      { kind: 'choices', name: 'm', required: false, options },
      ['a', 'z'],
      'must be among the choices offered',
    ],
    [
      'choices: twice',
      { kind: 'choices', name: 'm', required: false, options },
      ['a', 'a'],
      'lists a choice twice',
    ],
    [
      'choices: too few',
      { kind: 'choices', name: 'm', required: false, options, minItems: 2 },
      ['a'],
      'needs at least 2 choices',
    ],
    [
      'choices: too many',
      { kind: 'choices', name: 'm', required: false, options, maxItems: 1 },
      ['a', 'b'],
      'allows at most 1 choices',
    ],
  ])('%s', (_, field, value, problem) => {
    const check = checkAnswer([field], { [field.name]: value as never });
    if (problem === undefined)
      expect(check).toEqual({ ok: true, content: { [field.name]: value } });
    else expect(check).toEqual({ ok: false, issues: [{ field: field.name, message: problem }] });
  });

  it('requires a required field, and an empty text counts as missing', () => {
    expect(checkAnswer([text({ required: true })], {})).toEqual({
      ok: false,
      issues: [{ field: 't', message: 'is required' }],
    });
    expect(checkAnswer([text()], { t: '' })).toEqual({ ok: true, content: {} });
    expect(checkAnswer([text({ required: true })], { t: '' })).toEqual({
      ok: false,
      issues: [{ field: 't', message: 'is required' }],
    });
  });

  it('fills in the defaults of omitted fields (SEP-1034)', () => {
    const fields: ElicitationField[] = [
      text({ name: 'name', default: 'John Doe' }),
      number({ name: 'age', integer: true, default: 30 }),
      { kind: 'boolean', name: 'ok', required: false, default: true },
    ];
    expect(checkAnswer(fields, {})).toEqual({
      ok: true,
      content: { name: 'John Doe', age: 30, ok: true },
    });
    expect(initialValues(fields)).toEqual({ name: 'John Doe', age: 30, ok: true });
  });

  it('refuses a value for a field the form did not ask for', () => {
    expect(checkAnswer([text()], { t: 'x', extra: 'y' })).toEqual({
      ok: false,
      issues: [{ field: 'extra', message: 'was not asked for' }],
    });
  });
});
