import { describe, expect, it } from 'vitest';
import { DEV_EXTENSION_ID, GECKO_ID } from '../../protocol/identity';
import { DEFAULT_ALLOWED_CALLERS, checkCaller } from './origin';

// Dangerous direction: accepting a caller that is not ours hands local MCP servers to it.
describe('checkCaller', () => {
  it.each([
    [[`chrome-extension://${DEV_EXTENSION_ID}/`], true],
    [[`chrome-extension://${DEV_EXTENSION_ID}/`, '--parent-window=0'], true],
    [['/home/u/.mozilla/native-messaging-hosts/com.switchyard.host.json', GECKO_ID], true],
    [[], false],
    [[`chrome-extension://${'a'.repeat(32)}/`], false],
    [[`chrome-extension://${DEV_EXTENSION_ID}`], false],
    [[`chrome-extension://${DEV_EXTENSION_ID}/x`], false],
    [[`CHROME-EXTENSION://${DEV_EXTENSION_ID}/`], false],
    [['/path/manifest.json', 'evil@example.com'], false],
    [['/path/manifest.json'], false],
    [[GECKO_ID], false],
  ])('%j -> %s', (args, ok) => {
    expect(checkCaller(args, DEFAULT_ALLOWED_CALLERS).ok).toBe(ok);
  });
});
