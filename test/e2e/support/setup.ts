import { afterAll } from 'vitest';
import { closeLeftoverBrowsers } from './chromium';

// A spec that fails before closing its browser must not leave it (or its hosts) running.
afterAll(async () => {
  await closeLeftoverBrowsers();
});
