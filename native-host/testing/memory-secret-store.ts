import type { SecretStore } from '../secrets/secret-store';

/** A `SecretStore` in memory, for tests. `values` is exposed so a test can look or tamper. */
export class MemorySecretStore implements SecretStore {
  readonly info = { kind: 'memory', where: 'memory' } as const;
  readonly values = new Map<string, string>();

  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.values.get(key));
  }

  set(key: string, value: string): Promise<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }

  delete(key: string): Promise<boolean> {
    return Promise.resolve(this.values.delete(key));
  }

  list(prefix: string): Promise<string[]> {
    return Promise.resolve([...this.values.keys()].filter((k) => k.startsWith(prefix)).sort());
  }
}
