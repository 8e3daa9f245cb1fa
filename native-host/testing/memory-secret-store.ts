import type { SecretStore, SecretStoreInfo } from '../secrets/secret-store';

/** A SecretStore in a Map, for tests; `failWith` makes every call reject (a broken store). */
export class MemorySecretStore implements SecretStore {
  readonly info: SecretStoreInfo = { kind: 'memory', where: 'memory (tests)' };
  readonly values = new Map<string, string>();
  /** Every key read, in order, so a test can tell which lookups reached the store. */
  readonly reads: string[] = [];
  failWith: Error | undefined;

  constructor(entries: Readonly<Record<string, string>> = {}) {
    for (const [key, value] of Object.entries(entries)) this.values.set(key, value);
  }

  get(key: string): Promise<string | undefined> {
    this.reads.push(key);
    if (this.failWith) return Promise.reject(this.failWith);
    return Promise.resolve(this.values.get(key));
  }

  set(key: string, value: string): Promise<void> {
    if (this.failWith) return Promise.reject(this.failWith);
    this.values.set(key, value);
    return Promise.resolve();
  }

  delete(key: string): Promise<boolean> {
    if (this.failWith) return Promise.reject(this.failWith);
    return Promise.resolve(this.values.delete(key));
  }

  list(prefix: string): Promise<string[]> {
    if (this.failWith) return Promise.reject(this.failWith);
    return Promise.resolve([...this.values.keys()].filter((k) => k.startsWith(prefix)).sort());
  }
}
