import { describe, expect, it } from 'vitest';
import { hasDisplay } from './display';

// Dangerous direction: a wrong "yes" only costs a failed launch (start.ts then runs the
// self-check); a wrong "no" hides the browser path from a desktop user.
describe('hasDisplay', () => {
  it.each<[NodeJS.Platform, Record<string, string>, boolean]>([
    ['linux', {}, false],
    ['linux', { DISPLAY: ':0' }, true],
    ['linux', { WAYLAND_DISPLAY: 'wayland-0' }, true],
    ['linux', { DISPLAY: '', WAYLAND_DISPLAY: ' ' }, false],
    ['freebsd', { DISPLAY: ':0' }, true],
    ['freebsd', {}, false],
    ['darwin', {}, true],
    ['win32', {}, true],
  ])('%s %j -> %s', (platform, env, expected) => {
    expect(hasDisplay(platform, env)).toBe(expected);
  });
});
