import { expect, test } from 'vitest';
import { onProposedMessage, proposeMessage } from './app-messages';

// An app is told whether its message was placed: never "placed" when no box took it.

test('placed only when a box takes it', () => {
  const message = { server: 'probe', text: 'hello' };
  expect(proposeMessage(message)).toBe(false);

  const keepsDraft = onProposedMessage(() => false);
  expect(proposeMessage(message)).toBe(false);

  const seen: string[] = [];
  const takes = onProposedMessage((m) => {
    seen.push(`${m.server}: ${m.text}`);
    return true;
  });
  expect(proposeMessage(message)).toBe(true);
  expect(seen).toEqual(['probe: hello']);

  takes();
  expect(proposeMessage(message)).toBe(false);
  keepsDraft();
});
