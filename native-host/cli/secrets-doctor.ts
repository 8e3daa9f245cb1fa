import { messageOf } from '../../protocol/guards';
import type { ServerSummary } from '../../protocol/servers';
import { referencedVariables } from '../config/env';
import { missingVariablesMessage, resolveVariables } from '../config/variables';
import { createSecretStore } from '../secrets/create-secret-store';
import type { SecretStore, SecretStoreInfo } from '../secrets/secret-store';
import type { ServerSpec } from '../shared/server-spec';
import type { CliIo } from './io';

/**
 * The secrets section of `switchyard doctor`: which store holds secrets (and why that one), and
 * for each configured server the `${VAR}` references of its env and where each resolves: the
 * environment, the store, or nowhere (a problem, with the fix). Names only, never a value.
 */

export interface ServerVariables {
  readonly server: string;
  readonly fromEnv: readonly string[];
  readonly fromStore: readonly string[];
  readonly unresolved: readonly string[];
}

export interface SecretsSection {
  readonly text: string;
  readonly problems: readonly string[];
  readonly json: {
    readonly store: SecretStoreInfo | null;
    readonly error?: string;
    readonly variables: readonly ServerVariables[];
  };
}

export async function secretsSection(
  io: CliIo,
  home: string | null,
  specs: readonly ServerSpec[],
  servers: readonly ServerSummary[],
): Promise<SecretsSection> {
  let store: SecretStore | undefined;
  let error: string | undefined;
  if (home !== null) {
    try {
      store = await createSecretStore({ home, platform: io.platform, env: io.env });
    } catch (e) {
      error = messageOf(e);
    }
  }
  const variables: ServerVariables[] = [];
  const problems: string[] = [];
  if (error !== undefined) problems.push(`secret store: ${error}`);
  for (const spec of specs) {
    const resolution = await resolveVariables(Object.values(spec.env), {
      env: io.env,
      platform: io.platform,
      ...(store ? { store: () => Promise.resolve(store) } : {}),
    });
    const fromStore = new Set(resolution.fromStore);
    const unresolved = new Set(resolution.missing);
    const all = referencedVariables(Object.values(spec.env)).map((r) => r.name);
    if (all.length === 0) continue;
    const row: ServerVariables = {
      server: spec.name,
      fromEnv: all.filter((n) => !fromStore.has(n) && resolution.lookup(n) !== undefined),
      fromStore: [...fromStore],
      unresolved: [...unresolved],
    };
    variables.push(row);
    // A server that already failed for it reports the same message among the servers' problems.
    const status = servers.find((s) => s.name === spec.name)?.status;
    const reported = status?.state === 'failed' && status.reason === 'missing-variable';
    if (row.unresolved.length > 0 && !reported) {
      problems.push(missingVariablesMessage(spec.name, resolution));
    }
  }
  return {
    text: sectionText(store?.info ?? null, error, variables),
    problems,
    json: { store: store?.info ?? null, ...(error === undefined ? {} : { error }), variables },
  };
}

/** "Secrets: <where>" with the note, then one line per server with references. Pure. */
export function sectionText(
  info: SecretStoreInfo | null,
  error: string | undefined,
  variables: readonly ServerVariables[],
): string {
  const lines = [
    info === null
      ? `Secrets:         (no store${error === undefined ? '' : `: ${error}`})`
      : `Secrets:         ${info.where}${info.note === undefined ? '' : `\n                 (${info.note})`}`,
  ];
  for (const row of variables) {
    const parts = [
      ...row.fromEnv.map((n) => `${n} (environment)`),
      ...row.fromStore.map((n) => `${n} (secret store)`),
      ...row.unresolved.map((n) => `${n} (NOT SET)`),
    ];
    if (parts.length > 0) lines.push(`  ${row.server}: ${parts.join(', ')}`);
  }
  return `${lines.join('\n')}\n`;
}
