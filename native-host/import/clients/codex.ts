import { ConfigError } from '../../config/load';
import { cannot, convertStdio, droppedKeyNotes, type EntryOutcome } from '../convert-entry';
import { convertRemote } from '../convert-remote';
import { ResultBuilder } from '../result-builder';
import { shownValue } from '../text';
import { isRecord } from '../../../protocol/guards';
import type { Dialect } from '../variables';
import { parseTomlDocument } from '../parse-document';
import { rootObject } from '../server-map';
import type { ConvertContext, ConvertResult } from '../types';

/**
 * Codex, `~/.codex/config.toml`: one `[mcp_servers.<name>]` table per server, with `command`,
 * `args`, `env`, `env_vars` (names of variables passed through from Codex's environment), `cwd`
 * and `enabled`; or `url` for a remote (Streamable HTTP) server, with `http_headers` (literal
 * values), `env_http_headers` (header -> the variable holding its value) and
 * `bearer_token_env_var` (the variable holding a token sent as `Authorization: Bearer`). Codex
 * expands no variables. `env_vars` become `"NAME": "${NAME}"`, and a header read from a variable
 * `"Header": "${NAME}"`, which Switchyard expands from its own environment the same way.
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
/** Keys of a remote server's table that are read (or deliberately not imported). */
const REMOTE_KEYS = [
  'url',
  'environment_id',
  'http_headers',
  'env_http_headers',
  'bearer_token_env_var',
  'headers',
  'enabled',
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
  const environment = raw['environment_id'];
  if (environment !== undefined && environment !== 'local') {
    const shown = typeof environment === 'string' ? ` ${shownValue(environment)}` : '';
    return {
      ok: false,
      reason: `cannot convert: Codex runs it in the environment${shown}, not on this machine`,
    };
  }
  if (raw['command'] === undefined) {
    return raw['url'] === undefined
      ? { ok: false, reason: 'cannot convert: the entry has neither "command" nor "url"' }
      : convertRemoteEntry(raw, context);
  }
  if (raw['url'] !== undefined) {
    return {
      ok: false,
      reason: 'cannot convert: it sets both "command" and "url", which Codex refuses too; keep one',
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

/** A `url` table: Codex speaks Streamable HTTP only, so that is the transport written. */
function convertRemoteEntry(
  raw: Readonly<Record<string, unknown>>,
  context: ConvertContext,
): EntryOutcome {
  const headers: Record<string, unknown> = {};
  const set = (name: string, value: unknown, from: string): string | undefined => {
    const clash = Object.keys(headers).find((key) => key.toLowerCase() === name.toLowerCase());
    if (clash !== undefined) {
      return `the header ${shownValue(name)} is set twice (again by "${from}"); keep one in Codex and import again`;
    }
    Object.defineProperty(headers, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return undefined;
  };
  const literal = raw['http_headers'] ?? {};
  if (!isRecord(literal)) return cannot('"http_headers" must be a table of strings');
  for (const [name, value] of Object.entries(literal)) {
    const clash = set(name, value, 'http_headers');
    if (clash !== undefined) return cannot(clash);
  }
  const fromEnv = raw['env_http_headers'] ?? {};
  if (!isRecord(fromEnv)) return cannot('"env_http_headers" must be a table of variable names');
  for (const [name, variable] of Object.entries(fromEnv)) {
    if (typeof variable !== 'string' || !ENV_NAME.test(variable)) {
      return cannot(
        `"env_http_headers" must map each header to a variable name such as "API_TOKEN" (${shownValue(name)} does not)`,
      );
    }
    const clash = set(name, `\${${variable}}`, 'env_http_headers');
    if (clash !== undefined) return cannot(clash);
  }
  const bearer = raw['bearer_token_env_var'];
  if (bearer !== undefined) {
    if (typeof bearer !== 'string' || !ENV_NAME.test(bearer)) {
      return cannot('"bearer_token_env_var" must be a variable name such as "GITHUB_TOKEN"');
    }
    const clash = set('Authorization', `Bearer \${${bearer}}`, 'bearer_token_env_var');
    if (clash !== undefined) return cannot(clash);
  }
  const notes =
    raw['headers'] === undefined
      ? []
      : ['not imported: headers (Codex ignores this key; it sends "http_headers")'];
  return convertRemote(
    raw,
    REMOTE_KEYS,
    {
      transport: 'streamable-http',
      urlKey: 'url',
      url: raw['url'],
      headers,
      local: { args: raw['args'], env: raw['env'], cwd: raw['cwd'] },
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
