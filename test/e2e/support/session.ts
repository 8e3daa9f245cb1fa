import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, type SwitchyardBrowser } from './chromium';
import { createProfile, type ProfileOptions, type SwitchyardProfile } from './profile';

/**
 * The per-spec-file fixture: a profile and (unless `launch` is false) one browser on it, made
 * in `beforeAll` and torn down in `afterAll` (browser closed and checked for surviving
 * processes, temp folder deleted). Call at the top of a spec file.
 */

export interface SessionOptions extends ProfileOptions {
  /** Launch the browser in `beforeAll` (default true). */
  readonly launch?: boolean;
}

export interface Session {
  readonly profile: SwitchyardProfile;
  /** The current browser; throws when none is running. */
  readonly browser: SwitchyardBrowser;
  /** Closes the current browser (checking its processes) and launches a new one. */
  relaunch(): Promise<SwitchyardBrowser>;
  /** Closes the current browser, checking its processes. */
  closeBrowser(): Promise<void>;
}

export function useSwitchyard(options: SessionOptions = {}): Session {
  let profile: SwitchyardProfile | undefined;
  let browser: SwitchyardBrowser | undefined;

  const closeBrowser = async (): Promise<void> => {
    const current = browser;
    browser = undefined;
    await current?.close();
  };

  beforeAll(async () => {
    profile = createProfile(options);
    if (options.launch !== false) browser = await launchBrowser(profile);
  });
  afterAll(async () => {
    try {
      await closeBrowser();
    } finally {
      profile?.dispose();
    }
  });

  return {
    get profile() {
      if (profile === undefined) throw new Error('The profile exists from beforeAll on.');
      return profile;
    },
    get browser() {
      if (browser === undefined) throw new Error('No browser is running: call relaunch().');
      return browser;
    },
    closeBrowser,
    relaunch: async () => {
      await closeBrowser();
      if (profile === undefined) throw new Error('The profile exists from beforeAll on.');
      browser = await launchBrowser(profile);
      return browser;
    },
  };
}
