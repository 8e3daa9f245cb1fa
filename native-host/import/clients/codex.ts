import { ConfigError } from '../../config/load';
import { convertStdio, droppedKeyNotes, type EntryOutcome } from '../convert-entry';
import { ResultBuilder } from '../result-builder';
import { shownValue } from '../text';
import { isRecord } from '../../../protocol/guards';
import type { Dialect } from '../variables';
import { parseTomlDocument } from '../parse-document';
import { rootObject } from '../server-map';
import { REMOTE_REASON, type ConvertContext, type ConvertResult } from '../types';

/**
 * Codex, `~/.codex/config.toml`: one `[mcp_servers.<name>]` table per server, with `command`,
 * `args`, `env`, `env_vars` (names of variables passed through from Codex's environment), `cwd`
 * and `enabled`; or `url` for a remote server. Codex expands no variables. `env_vars` become
 * `"NAME": "${NAME}"`, which Switchyard expands from its own environment the same way.
 */
export const CODEX: Dialect = { label: 'Codex', launchVariables: 'literal', predefined: [] };

const KNOWN_KEYS = [
  'command',
  'args',
  'env',
  'env_vars',
  'cwd',
  'enabled',
  'environment_id',
  'name',
];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function convertCodex(text: string, file: string, context: ConvertContext): ConvertResult {
  const root = rootObject(parseTomlDocument(text, file), file);
  const builder = new ResultBuilder(CODEX);
  const servers = root['mcp_servers'];
  if (servers === undefined) return builder.result();
  if (!isRecord(servers)) {
    throw new ConfigError({
      file,
      key: 'mcp_servers',
      detail:
        'this must be a table of servers ([mcp_servers.<name>]); nothing was imported from the file. Fix it and try again',
    });
  }
  for (const [name, raw] of Object.entries(servers)) builder.add(name, convertEntry(raw, context));
  return builder.result();
}

function convertEntry(raw: unknown, context: ConvertContext): EntryOutcome {
  if (!isRecord(raw)) return { ok: false, reason: 'cannot convert: the entry is not a table' };
  if (raw['command'] === undefined) {
    return raw['url'] === undefined
      ? { ok: false, reason: 'cannot convert: the entry has neither "command" nor "url"' }
      : { ok: false, reason: REMOTE_REASON };
  }
  if (raw['url'] !== undefined) {
    return {
      ok: false,
      reason: 'cannot convert: it sets both "command" and "url", which Codex refuses too; keep one',
    };
  }
  const environment = raw['environment_id'];
  if (environment !== undefined && environment !== 'local') {
    const shown = typeof environment === 'string' ? ` ${shownValue(environment)}` : '';
    return {
      ok: false,
      reason: `cannot convert: Codex runs it in the environment${shown}, not on this machine`,
    };
  }
  const notes = droppedKeyNotes(raw, KNOWN_KEYS);
  const env = raw['env'] ?? {};
  if (!isRecord(env))
    return { ok: false, reason: 'cannot convert: "env" must be a table of strings' };
  const passed = passedThrough(raw['env_vars']);
  if (typeof passed === 'string') return { ok: false, reason: `cannot convert: ${passed}` };
  const merged: Record<string, unknown> = { ...env };
  const added = passed.filter((name) => !Object.hasOwn(merged, name));
  for (const name of added) merged[name] = `\${${name}}`;
  if (added.length > 0) {
    notes.push(`passes ${added.join(', ')} through from your environment (env_vars)`);
  }
  return convertStdio(
    {
      command: raw['command'],
      args: raw['args'],
      env: merged,
      cwd: raw['cwd'],
      disabled: raw['enabled'] === false,
      notes,
    },
    CODEX,
    context,
  );
}

/** Names in `env_vars`: a list of names or of `{ name, source }` tables. */
function passedThrough(raw: unknown): string[] | string {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) return '"env_vars" must be a list of variable names';
  const names: string[] = [];
  for (const item of raw) {
    const name: unknown = isRecord(item) ? item['name'] : item;
    if (typeof name !== 'string' || !ENV_NAME.test(name)) {
      return '"env_vars" must list variable names such as "GITHUB_TOKEN"';
    }
    if (isRecord(item) && item['source'] === 'remote') {
      return `"env_vars" takes ${name} from a remote environment, which Switchyard does not have`;
    }
    names.push(name);
  }
  return names;
}
