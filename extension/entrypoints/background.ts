import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import { describeConnection } from '../background/connection-state';
import { HostClient } from '../background/host-client';

// WXT evaluates this file's top level at build time: runtime code stays inside main().
export default defineBackground(() => {
  // The worker is the sole owner of the native port (design D12); an open port keeps it alive.
  const host = new HostClient({
    client: { name: 'switchyard-extension', version: browser.runtime.getManifest().version },
  });
  host.onStateChange((state) => {
    console.info(`[switchyard] ${describeConnection(state)}`);
  });
  host.connect();
  // Next (issue 4): the AgentSession with an AI SDK provider, the tool router
  // (createToolRouter + createBuiltinTools), conversation storage, and the side panel's messages.
});
