import { browser } from 'wxt/browser';

/**
 * The storage seam of the worker's stores: values are structured-clonable data; what comes back
 * is `unknown` and parsed by the store that owns the key. Production is `storage.local`, which
 * only this extension's pages and worker can read (see `restrictToExtensionPages`).
 */
export interface KeyValueStorage {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  remove(key: string): Promise<void>;
}

export function memoryStorage(initial: Record<string, unknown> = {}): KeyValueStorage & {
  readonly data: Map<string, unknown>;
} {
  const data = new Map<string, unknown>(Object.entries(initial));
  return {
    data,
    get: (key) => Promise.resolve(structuredClone(data.get(key))),
    set: (key, value) => {
      data.set(key, structuredClone(value));
      return Promise.resolve();
    },
    remove: (key) => {
      data.delete(key);
      return Promise.resolve();
    },
  };
}

export function browserLocalStorage(): KeyValueStorage {
  const area = browser.storage.local;
  return {
    get: async (key) => (await area.get(key))[key],
    set: (key, value) => area.set({ [key]: value }),
    remove: (key) => area.remove(key),
  };
}

/**
 * Keeps `storage.local` (API keys, conversations) away from content scripts. Chromium lets an
 * extension restrict it to trusted contexts; Firefox has no such switch, and Switchyard ships no
 * content scripts, so the only scripts it injects (reading a page's text) are its own functions.
 */
export async function restrictToExtensionPages(): Promise<void> {
  // Typed as always present, but Firefox has no setAccessLevel on storage.local.
  const area: Partial<Pick<typeof browser.storage.local, 'setAccessLevel'>> = browser.storage.local;
  if (area.setAccessLevel === undefined) return;
  try {
    await area.setAccessLevel({ accessLevel: 'TRUSTED_CONTEXTS' });
  } catch (error) {
    console.warn('[switchyard] could not restrict storage to extension pages', error);
  }
}
