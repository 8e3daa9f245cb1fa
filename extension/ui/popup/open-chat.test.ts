import { describe, expect, it, vi } from 'vitest';
import { findChatOpener } from './open-chat';

describe('opening the chat', () => {
  it('uses the side panel in Chromium, calling it at once (inside the user gesture)', async () => {
    const open = vi.fn(() => Promise.resolve());
    const opener = findChatOpener({ sidePanel: { open }, sidebarAction: { open: vi.fn() } });
    expect(opener.kind).toBe('side-panel');
    if (opener.kind !== 'side-panel') return;
    const pending = opener.open(7);
    expect(open).toHaveBeenCalledWith({ windowId: 7 });
    await pending;
  });

  it('uses the sidebar in Firefox', async () => {
    const open = vi.fn(() => Promise.resolve());
    const opener = findChatOpener({ sidebarAction: { open } });
    expect(opener.kind).toBe('sidebar');
    if (opener.kind === 'sidebar') await opener.open();
    expect(open).toHaveBeenCalledOnce();
  });

  it('reports a synchronous throw as a rejection', async () => {
    const opener = findChatOpener({
      sidePanel: {
        open: () => {
          throw new Error('needs a user gesture');
        },
      },
    });
    if (opener.kind !== 'side-panel') throw new Error('expected the side panel');
    await expect(opener.open(1)).rejects.toThrow(/user gesture/);
  });

  it.each([undefined, null, {}, { sidePanel: {} }, { sidePanel: { open: 'x' } }])(
    'finds nothing in %j',
    (api) => {
      expect(findChatOpener(api).kind).toBe('none');
    },
  );
});
