import os from 'node:os';
import type { ServerSummary } from '../../protocol/servers';
import { ConfigError } from '../config/load';
import { configPath } from '../config/paths';
import type { Handlers } from './dispatcher';
import { HostError } from '../shared/host-error';
import { configErrorDetails } from '../config/config-error-details';
import type { LiveConfig } from '../host/live-config';
import {
  ImportRefusal,
  ImportSourceFailure,
  ImportWriteFailure,
  applyImport,
  defaultSources,
  previewImport,
  type ImportEnvironment,
} from '../import/importer';
import { sourcePreview } from '../import/preview';
import { newUserServer, prepareImport } from '../import/write-servers';

/**
 * `import/preview` and `import/apply` for the options page. The extension names clients and
 * entries, never a file or a command: the host reads each client's default file itself, and
 * `import/apply` reads it again and writes an entry only if it still has the digest the preview
 * showed. Writes go through the same path as `servers/add` (written by Switchyard, approved, the
 * host reloaded), so imported servers start without a prompt.
 */

export interface HostImportContext {
  /** `$SWITCHYARD_HOME`. */
  readonly home: string;
  /** The writer of `servers/add`; throws `config-invalid` when the host has no config file. */
  readonly live: () => Pick<LiveConfig, 'addServer'>;
  readonly env?: NodeJS.ProcessEnv;
  readonly platform?: NodeJS.Platform;
  readonly homedir?: string;
}

export function importHandlers(
  context: HostImportContext,
): Pick<Handlers, 'import/preview' | 'import/apply'> {
  const platform = context.platform ?? process.platform;
  const environment = (): ImportEnvironment => ({
    platform,
    env: context.env ?? process.env,
    homedir: context.homedir ?? os.homedir(),
    configFile: configPath(context.home, platform),
  });
  return {
    'import/preview': async (params) => {
      const where = environment();
      try {
        const plan = await previewImport(defaultSources(params?.sources, where), where);
        return { configFile: where.configFile, sources: plan.map(sourcePreview) };
      } catch (error) {
        throw hostErrorOf(error);
      }
    },
    'import/apply': async ({ entries }) => {
      const where = environment();
      const live = context.live();
      const servers: ServerSummary[] = [];
      try {
        const applied = await applyImport(entries, where, async (name, entry) => {
          const { replace } = await prepareImport(where.configFile, name, entry);
          servers.push(await live.addServer({ ...newUserServer(name, entry), replace }));
        });
        const shown = (list: typeof applied.written) =>
          list.map((w) => ({ source: w.client, name: w.name, server: w.server }));
        return { written: shown(applied.written), unchanged: shown(applied.unchanged), servers };
      } catch (error) {
        throw hostErrorOf(error);
      }
    },
  };
}

/** The protocol error for a failed preview or apply; the message says what to do next. */
function hostErrorOf(error: unknown): unknown {
  if (error instanceof ConfigError) {
    return new HostError(
      'config-invalid',
      `Cannot read ${error.message}. Nothing was imported; fix the file, then try again.`,
      configErrorDetails(error),
    );
  }
  if (error instanceof ImportSourceFailure) {
    return new HostError(
      'config-invalid',
      `${error.message}. Nothing was imported; fix the file in its own app, or import from the other clients only.`,
      { ...configErrorDetails(error.error), source: error.client },
    );
  }
  if (error instanceof ImportRefusal) {
    return new HostError(
      error.kind === 'stale' ? 'fingerprint-mismatch' : 'invalid-params',
      `${error.message} Nothing was imported.`,
      { source: error.client, name: error.entryName },
    );
  }
  if (error instanceof ImportWriteFailure) {
    const written = error.written.map((w) => w.server);
    const cause = error.cause;
    const done =
      written.length === 0 ? 'Nothing was imported.' : `Imported before it: ${written.join(', ')}.`;
    if (cause instanceof HostError) {
      return new HostError(cause.reason, `${error.message} ${done}`, {
        ...cause.details,
        written,
      });
    }
    return new HostError('internal', `${error.message} ${done}`, { written });
  }
  return error;
}
