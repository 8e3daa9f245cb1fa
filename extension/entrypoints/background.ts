import '../zod-jitless';
import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import { watchActiveTab } from '../background/active-tab';
import { createBuiltinTools } from '../background/builtin-tools';
import { describeConnection } from '../messaging/connection';
import { holdPort } from '../background/held-port';
import { HostClient } from '../background/host-client';
import { createAiSdkProvider } from '../background/providers/ai-sdk-provider';
import { installChatOpeners } from '../background/open-chat';
import type { ReachDeps } from '../background/providers/provider-reach';
import { browserLocalStorage, restrictToExtensionPages } from '../background/stores/key-value';
import { startWorker } from '../background/worker';

// WXT evaluates this file's top level at build time: runtime code stays inside main().
export default defineBackground(() => {
  // The worker is the sole owner of the native port (design D12); an open port keeps it alive.
  const host = new HostClient({
    client: { name: 'switchyard-extension', version: browser.runtime.getManifest().version },
  });
  host.onStateChange((state) => {
    console.info(`[switchyard] ${describeConnection(state)}`);
  });

  // The network as the worker sees it, and the site access that frees its requests from the
  // provider's CORS headers: Test connection and the chat's errors name a missing one (issue 14).
  const reach: ReachDeps = {
    fetch: (input, init) => fetch(input, init),
    hasAccess: (pattern) => browser.permissions.contains({ origins: [pattern] }),
  };

  // Listeners are registered synchronously, so an event that woke the worker is not missed;
  // pages that connect before the stores have loaded wait for them.
  const worker = restrictToExtensionPages().then(() =>
    startWorker({
      host,
      storage: browserLocalStorage(),
      builtins: createBuiltinTools(),
      createProvider: (settings) => createAiSdkProvider(settings, { reach }),
      reach,
      extensionId: browser.runtime.id,
      // `chrome-extension://<id>` (Firefox: `moz-extension://<uuid>`), without the slash.
      extensionOrigin: browser.runtime.getURL('/').replace(/\/$/, ''),
      watchActiveTab,
    }),
  );
  browser.runtime.onConnect.addListener((connected) => {
    // Held from now: a page's first request must not be lost while the stores load.
    const port = holdPort(connected);
    void worker.then((w) => w.acceptPort(port));
  });
  installChatOpeners();
  host.connect();
});
