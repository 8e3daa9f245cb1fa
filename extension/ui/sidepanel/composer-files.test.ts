import { describe, expect, test } from 'vitest';
import { MAX_IMAGE_BYTES } from '../../messaging/images';
import { MAX_TEXT_FILE_BYTES, readComposerFile, selectionFile, sortFile } from './composer-files';

// The composer's first sort of files. Dangerous direction is in the worker (it checks bytes);
// here the failure to avoid is a file silently dropped: a refusal always names the file and why.

test.each([
  ['a.png', 'image/png', 10, 'image'],
  ['photo.jpeg', 'image/jpeg', MAX_IMAGE_BYTES, 'image'],
  ['big.png', 'image/png', MAX_IMAGE_BYTES + 1, 'larger than the 1.0 MB'],
  ['logo.svg', 'image/svg+xml', 10, 'only PNG, JPEG, GIF and WebP images and text files'],
  ['notes.txt', 'text/plain', 10, 'text'],
  ['data.json', 'application/json', 10, 'text'],
  ['main.rs', '', 10, 'text'],
  ['huge.log', 'text/plain', MAX_TEXT_FILE_BYTES + 1, 'larger than the'],
  ['setup.exe', 'application/octet-stream', 10, 'cannot be attached'],
])('%s (%s, %d bytes): %s', (name, type, size, expected) => {
  const sorted = sortFile({ name, type, size });
  if (sorted.kind === 'refused') {
    expect(sorted.reason).toContain(expected);
    expect(sorted.reason).toContain(name);
  } else expect(sorted.kind).toBe(expected);
});

test('reads an image as base64 and a text file as text', async () => {
  const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'a.png', { type: 'image/png' });
  expect(await readComposerFile(png, 'image')).toEqual({
    kind: 'image',
    name: 'a.png',
    mimeType: 'image/png',
    data: 'iVBORw==',
  });
  const text = new File(['hello'], 'n.txt', { type: 'text/plain' });
  expect(await readComposerFile(text, 'text')).toEqual({
    kind: 'text',
    name: 'n.txt',
    text: 'hello',
  });
});

describe('the page’s selection from "Add context" (issue 14)', () => {
  test.each([
    [
      'a selection becomes a chip named by its page',
      { ok: true as const, text: 'picked words', title: ' My\npage ', url: 'https://x.org/' },
      {
        file: {
          kind: 'selection',
          name: 'My page',
          url: 'https://x.org/',
          text: 'picked words',
        },
      },
    ],
    [
      'a page without a title is named by its address',
      { ok: true as const, text: 'w', title: '', url: 'https://x.org/' },
      { file: { kind: 'selection', name: 'https://x.org/', url: 'https://x.org/', text: 'w' } },
    ],
    [
      'nothing selected says what to do',
      { ok: true as const, text: '  ', title: 'T', url: 'https://x.org/' },
      { problem: 'Nothing is selected on the page: select some text there, then add it.' },
    ],
    [
      'no access passes the worker’s words on',
      { ok: false as const, problem: 'Cannot read the selection: …' },
      { problem: 'Cannot read the selection: …' },
    ],
  ])('%s', (_name, answer, expected) => {
    expect(selectionFile(answer)).toEqual(expected);
  });
});
