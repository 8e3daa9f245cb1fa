import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEV_EXTENSION_ID, DEV_EXTENSION_KEY, HOST_NAME, chromiumOrigin } from './identity';

describe('extension identity', () => {
  it('derives the pinned id from the pinned key, as Chromium does', () => {
    const hex = createHash('sha256')
      .update(Buffer.from(DEV_EXTENSION_KEY, 'base64'))
      .digest('hex')
      .slice(0, 32);
    const id = hex.replace(/[0-9a-f]/g, (c) => String.fromCharCode(97 + parseInt(c, 16)));
    expect(id).toBe(DEV_EXTENSION_ID);
  });

  it('uses a host name Chromium accepts', () => {
    expect(HOST_NAME).toMatch(/^[a-z0-9_]+(\.[a-z0-9_]+)*$/);
  });

  it('formats the caller origin with its trailing slash', () => {
    expect(chromiumOrigin(DEV_EXTENSION_ID)).toBe(`chrome-extension://${DEV_EXTENSION_ID}/`);
  });
});
