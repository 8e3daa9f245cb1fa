import { describe, expect, it } from 'vitest';
import { DEV_EXTENSION_ID, GECKO_ID, HOST_NAME } from '../protocol/identity';
import { BROWSERS, BROWSER_INFO } from './browsers';
import {
  StoredManifestSchema,
  hostManifest,
  manifestProblems,
  manifestText,
  type StoredManifest,
} from './manifest';

// Dangerous direction: an origin in the manifest that is not this build's hands the host (and
// every MCP server behind it) to another extension. Origins are exactly the ids given, with the
// trailing slash Chrome requires; an extra origin found on disk is a problem, never merged.

const LAUNCHER = '/home/ann/.config/switchyard/host/switchyard-host';
const STORE_ID = 'abcdefghijklmnopabcdefghijklmnop';

describe('hostManifest for every browser', () => {
  it.each(BROWSERS)('%s', (browser) => {
    const manifest = hostManifest(browser, LAUNCHER, [DEV_EXTENSION_ID, STORE_ID]);
    const base = {
      name: HOST_NAME,
      description: expect.any(String) as unknown,
      path: LAUNCHER,
      type: 'stdio',
    };
    if (BROWSER_INFO[browser].family === 'firefox') {
      expect(manifest).toEqual({ ...base, allowed_extensions: [GECKO_ID] });
    } else {
      expect(manifest).toEqual({
        ...base,
        allowed_origins: [
          `chrome-extension://${DEV_EXTENSION_ID}/`,
          `chrome-extension://${STORE_ID}/`,
        ],
      });
    }
  });

  it('lists each id once, in order, and text is stable', () => {
    const manifest = hostManifest('chrome', LAUNCHER, [STORE_ID, DEV_EXTENSION_ID, STORE_ID]);
    expect('allowed_origins' in manifest && manifest.allowed_origins).toEqual([
      `chrome-extension://${STORE_ID}/`,
      `chrome-extension://${DEV_EXTENSION_ID}/`,
    ]);
    expect(manifestText(manifest)).toBe(
      manifestText(hostManifest('chrome', LAUNCHER, [STORE_ID, DEV_EXTENSION_ID])),
    );
    expect(manifestText(manifest).endsWith('}\n')).toBe(true);
  });

  it.each([['*'], ['ABCDEFGHIJKLMNOPABCDEFGHIJKLMNOP'], ['abc'], [`${DEV_EXTENSION_ID}/`], ['']])(
    'refuses the id %j',
    (id) => {
      expect(() => hostManifest('chromium', LAUNCHER, [id])).toThrow(/extension id/);
    },
  );
});

describe('manifestProblems', () => {
  const good = (browser: 'chromium' | 'firefox'): StoredManifest =>
    StoredManifestSchema.parse(
      JSON.parse(manifestText(hostManifest(browser, LAUNCHER, [DEV_EXTENSION_ID]))),
    );
  const expected = { launcher: LAUNCHER, ids: [DEV_EXTENSION_ID] };

  it.each<[string, 'chromium' | 'firefox', Partial<StoredManifest>, RegExp | null]>([
    ['exactly right (chromium)', 'chromium', {}, null],
    ['exactly right (firefox)', 'firefox', {}, null],
    [
      'a widened origin list',
      'chromium',
      {
        allowed_origins: [
          `chrome-extension://${DEV_EXTENSION_ID}/`,
          `chrome-extension://${STORE_ID}/`,
        ],
      },
      /also allows chrome-extension:\/\/abcdefghijklmnop/,
    ],
    ['a missing origin', 'chromium', { allowed_origins: [] }, /lacks/],
    [
      'an origin without the slash',
      'chromium',
      { allowed_origins: [`chrome-extension://${DEV_EXTENSION_ID}`] },
      /also allows/,
    ],
    [
      'another gecko id',
      'firefox',
      { allowed_extensions: [GECKO_ID, 'evil@example.com'] },
      /evil@example\.com/,
    ],
    ['another program', 'chromium', { path: '/tmp/evil' }, /runs "\/tmp\/evil"/],
    ['another name', 'chromium', { name: 'com.other.host' }, /name/],
    ['another type', 'chromium', { type: 'socket' }, /type/],
    [
      'a cross-family key',
      'chromium',
      { allowed_extensions: [GECKO_ID] },
      /another browser family/,
    ],
  ])('%s', (_name, browser, change, problem) => {
    const problems = manifestProblems({ ...good(browser), ...change }, { browser, ...expected });
    if (problem === null) expect(problems).toEqual([]);
    else expect(problems.join('\n')).toMatch(problem);
  });
});
