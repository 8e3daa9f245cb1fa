import { expect, test } from 'vitest';
import { errorMessage } from './errors';

test.each([
  [new Error('Host not found.'), 'Host not found.'],
  ['plain', 'plain'],
  [new Error(''), 'Something went wrong; try again.'],
  [undefined, 'Something went wrong; try again.'],
  [{ message: 'not an Error' }, 'Something went wrong; try again.'],
])('errorMessage(%o)', (error, message) => {
  expect(errorMessage(error)).toBe(message);
});
