import { describe, expect, it } from 'vitest';
import { MAX_APP_HTML_BYTES } from '../../protocol/apps';
import { HostError } from '../shared/host-error';
import { readAppPage, splitIntoParts } from './app-page';

const URI = 'ui://demo/app.html';
const page = (entry: Record<string, unknown>) => ({ contents: [{ uri: URI, ...entry }] });

function reasonOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof HostError ? error.reason : 'not a HostError';
  }
  return undefined;
}

describe('readAppPage', () => {
  it('reads text with its declared CSP, permissions and border', () => {
    const read = readAppPage(
      page({
        mimeType: 'text/html; profile=mcp-app',
        text: '<p>hi</p>',
        _meta: {
          ui: {
            csp: { connectDomains: ['https://api.example.com', 'nope'] },
            permissions: { camera: {}, telepathy: {} },
            prefersBorder: false,
          },
        },
      }),
      'demo',
      URI,
    );
    expect(read).toMatchObject({
      html: '<p>hi</p>',
      bytes: 9,
      csp: { connectDomains: ['https://api.example.com'], resourceDomains: [] },
      ignored: ['connectDomains: nope'],
      permissions: ['camera'],
      prefersBorder: false,
    });
    expect(read.hash).toMatch(/^[0-9a-f]{64}$/u);
  });

  it('decodes a base64 blob of UTF-8', () => {
    const blob = Buffer.from('<p>é</p>', 'utf8').toString('base64');
    expect(
      readAppPage(page({ mimeType: 'text/html;profile=mcp-app', blob }), 'demo', URI).html,
    ).toBe('<p>é</p>');
  });

  it.each([
    ['no contents', {}, 'not-supported'],
    ['another type', page({ mimeType: 'text/html', text: '<p>' }), 'not-supported'],
    ['no type', page({ text: '<p>' }), 'not-supported'],
    ['neither text nor blob', page({ mimeType: 'text/html;profile=mcp-app' }), 'not-supported'],
    [
      'a blob that is not UTF-8',
      page({
        mimeType: 'text/html;profile=mcp-app',
        blob: Buffer.from([0xff, 0xfe]).toString('base64'),
      }),
      'not-supported',
    ],
    [
      'a page over the cap',
      page({ mimeType: 'text/html;profile=mcp-app', text: 'a'.repeat(MAX_APP_HTML_BYTES + 1) }),
      'result-too-large',
    ],
  ])('refuses %s', (_, raw, reason) => {
    expect(reasonOf(() => readAppPage(raw, 'demo', URI))).toBe(reason);
  });
});

describe('splitIntoParts', () => {
  it.each([
    ['empty', ''],
    ['ascii', 'abc'.repeat(1000)],
    ['quotes and newlines', '"\n\\'.repeat(500)],
    ['non-ASCII', 'é漢'.repeat(700)],
    ['surrogate pairs', '😀'.repeat(900)],
    ['control characters', '\u0001'.repeat(800)],
  ])('%s: parts join to the text and each fits', (_, text) => {
    const max = 1_000;
    const parts = splitIntoParts(text, max);
    expect(parts.join('')).toBe(text);
    for (const part of parts) {
      expect(Buffer.byteLength(JSON.stringify(part), 'utf8')).toBeLessThanOrEqual(max);
      // Never half a surrogate pair at either end.
      expect(part).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/u);
    }
  });
});
