import { describe, expect, it } from 'vitest';
import { parseInstallArgs, parseUninstallArgs } from './install-args';

// Dangerous direction: an argument silently ignored or misread (a typo'd --extension-id taken as
// a browser, a wildcard id accepted). Anything not understood is refused with a message.

const ID = 'abcdefghijklmnopabcdefghijklmnop';

describe('parseInstallArgs', () => {
  it.each<[string[], object]>([
    [[], { browsers: [], userDataDir: null, extensionIds: [], dryRun: false, json: false }],
    [['--browser', 'chrome', '--browser=Firefox'], { browsers: ['chrome', 'firefox'] }],
    [['--browser', 'edge', '--browser', 'edge'], { browsers: ['edge'] }],
    [
      ['--browser', 'chromium', '--user-data-dir', '/tmp/my profile', '--dry-run', '--json'],
      { browsers: ['chromium'], userDataDir: '/tmp/my profile', dryRun: true, json: true },
    ],
    [['--user-data-dir=--odd'], { userDataDir: '--odd' }],
    [['--extension-id', ID, `--extension-id=${ID}`], { extensionIds: [ID] }],
  ])('%j', (args, expected) => {
    const result = parseInstallArgs(args);
    expect(result).toEqual({ ok: true, value: expect.objectContaining(expected) as unknown });
  });

  it.each<[string[], RegExp]>([
    [
      ['--browser', 'opera'],
      /Unknown browser 'opera'.*chrome, chromium, edge, brave, vivaldi, firefox/,
    ],
    [['--browser'], /--browser needs a value/],
    [['--browser', '--dry-run'], /--browser needs a value/],
    [['--browser='], /--browser needs a value/],
    [['--extension-id', '*'], /not a Chromium extension id/],
    [['--extension-id', ID.toUpperCase()], /not a Chromium extension id/],
    [['--user-data-dir', '/a', '--user-data-dir', '/b'], /once/],
    [['--force'], /unknown argument '--force'/],
    [['chrome'], /unknown argument 'chrome'/],
    [['--dry-run=yes'], /unknown argument/],
  ])('refuses %j', (args, message) => {
    const result = parseInstallArgs(args);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });
});

describe('parseUninstallArgs', () => {
  it.each<[string[], object]>([
    [[], { browsers: [], userDataDir: null, dryRun: false, json: false }],
    [['--browser', 'brave', '--json'], { browsers: ['brave'], json: true }],
    // The flags install took, so an install's arguments undo it.
    [['--user-data-dir', '/tmp/p'], { userDataDir: '/tmp/p' }],
    [['--user-data-dir=/tmp/p', '--extension-id', ID], { userDataDir: '/tmp/p' }],
  ])('%j', (args, expected) => {
    expect(parseUninstallArgs(args)).toEqual({
      ok: true,
      value: expect.objectContaining(expected) as unknown,
    });
  });

  it.each<[string[], RegExp]>([
    [['--user-data-dir', '/a', '--user-data-dir', '/b'], /can be given once/],
    [['--extension-id', 'not-an-id'], /is not a Chromium extension id/],
    [['--force'], /unknown argument '--force'/],
    [['--browser', 'netscape'], /Unknown browser/],
  ])('refuses %j', (args, message) => {
    const result = parseUninstallArgs(args);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });
});
