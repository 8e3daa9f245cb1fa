import { messageOf } from '../../protocol/guards';
import { variableKey } from '../secrets/keys';
import type { SecretStore } from '../secrets/secret-store';
import { getEnvVar, referencedVariables, type EnvSource, type VariableLookup } from './env';

/**
 * Where a `${VAR}` reference's value comes from (issue 11 item 4): the host's environment first,
 * then the value the user gave with `switchyard secret set NAME` (the store's `var:NAME`). The
 * environment wins, so a shell export overrides a stored value; a variable exported empty is
 * set (to ""). A browser started from the desktop has no shell exports, which is what the store
 * is for.
 *
 * Resolved once per start: the store is asked only for names the environment lacks, and not at
 * all when it has them all. Any list of values with references can be resolved (a stdio entry's
 * `env`, a remote server's `headers`):
 *
 *   const vars = await resolveVariables(Object.values(headers), sources);
 *   if (vars.missing.length > 0) throw ...missingVariablesMessage(server, vars);
 *   const value = expandEnvValue(headers[name], vars.lookup).value;
 *
 * Values are never logged; results carry names only, apart from `lookup`.
 */

export interface VariableSources {
  /** The host's environment. */
  readonly env: EnvSource;
  readonly platform: NodeJS.Platform;
  /** The secret store, opened on first need; omitted, only the environment is looked at. */
  readonly store?: () => Promise<SecretStore>;
}

export interface VariableResolution {
  /** Expands references: the environment, then the store's values fetched for this start. */
  readonly lookup: VariableLookup;
  /** Referenced without a default and set nowhere: the start must fail, naming them. */
  readonly missing: readonly string[];
  /** Referenced and found in the store (names only). */
  readonly fromStore: readonly string[];
  /** Why the store could not be read, when it was needed and failed. */
  readonly storeError?: string;
}

export async function resolveVariables(
  values: Iterable<string>,
  sources: VariableSources,
): Promise<VariableResolution> {
  const inEnv = (name: string) => getEnvVar(sources.env, name, sources.platform);
  const references = referencedVariables(values);
  const wanted = references.filter((r) => inEnv(r.name) === undefined).map((r) => r.name);
  const stored = new Map<string, string>();
  let storeError: string | undefined;
  if (wanted.length > 0 && sources.store) {
    try {
      const store = await sources.store();
      const found = await Promise.all(wanted.map((name) => store.get(variableKey(name))));
      wanted.forEach((name, i) => {
        const value = found[i];
        if (value !== undefined) stored.set(name, value);
      });
    } catch (error) {
      storeError = messageOf(error);
    }
  }
  const lookup: VariableLookup = (name) => inEnv(name) ?? stored.get(name);
  const missing = references
    .filter((r) => !r.optional && lookup(r.name) === undefined)
    .map((r) => r.name);
  return {
    lookup,
    missing,
    fromStore: [...stored.keys()],
    ...(storeError === undefined ? {} : { storeError }),
  };
}

/** "A", "A and B", "A, B and C". */
function joined(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

/**
 * Why `server` cannot start, naming every unset variable and the two fixes:
 * "'github' needs GITHUB_TOKEN, which is not set: set it with `switchyard secret set
 * GITHUB_TOKEN`, or export it before starting the browser."
 */
export function missingVariablesMessage(
  server: string,
  resolution: Pick<VariableResolution, 'missing' | 'storeError'>,
): string {
  const names = resolution.missing;
  const one = names.length === 1;
  const commands = joined(names.map((name) => `\`switchyard secret set ${name}\``));
  const store =
    resolution.storeError === undefined
      ? ''
      : ` The secret store could not be read: ${resolution.storeError}`;
  return (
    `'${server}' needs ${joined(names)}, which ${one ? 'is' : 'are'} not set: ` +
    `set ${one ? 'it' : 'them'} with ${commands}, or export ${one ? 'it' : 'them'} before starting the browser.${store}`
  );
}
