import { describe, expect, it } from 'vitest';
import { isFullyAbsolute } from './workspace-folder';

describe('isFullyAbsolute', () => {
  it.each([
    ['linux', '/home/ada/repo', true],
    ['linux', 'repo', false],
    ['linux', './repo', false],
    ['darwin', '/Users/ada', true],
    ['linux', 'C:\\repo', false],
    ['win32', 'C:\\repo', true],
    ['win32', 'c:/repo', true],
    ['win32', '\\\\server\\share\\repo', true],
    ['win32', '//server/share', true],
    // These resolve against the current drive or folder: the launcher's, not the user's.
    ['win32', '\\repo', false],
    ['win32', '/repo', false],
    ['win32', 'C:repo', false],
    ['win32', '\\\\\\triple', false],
    ['win32', 'repo', false],
  ] as const)('%s: %s -> %s', (platform, value, expected) => {
    expect(isFullyAbsolute(value, platform)).toBe(expected);
  });
});
