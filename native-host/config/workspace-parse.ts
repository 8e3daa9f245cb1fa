import { JsonSyntaxError, scanJson } from './json-scan';
import { capWarnings, formatJsonPath, lineColumn, positionsIn } from './json-format';
import type { ScannedJson } from './json-scan';
import type { JsonPath } from './json-format';
import { fileWarning, locatedWarning, offsetOf, shownText } from './located-warning';
import type { Position, WorkspaceWarning, WorkspaceWarningKind } from './located-warning';
import { MAX_SERVERS, ServerEntrySchema, UNSUPPORTED_TRANSPORT, serverNameProblem } from './schema';
import { readTransport } from './remote-entry';
import { claimKeys, shownClaims } from './workspace-claims';
import type { EntryProblem, WorkspaceServer } from './workspace-types';
import { substituteEntry } from './workspace-variables';
import type { VariableContext } from './workspace-variables';
import { isRecord } from '../../protocol/guards';

/**
 * Parsing one workspace file's text: the `.mcp.json` (`mcpServers`) and `.vscode/mcp.json`
 * (`servers`) shapes, duplicate keys, trust claims, and each entry checked with the user tier's
 * schema. Pure: the text was read by workspace-read.ts.
 */

/** One of the files a workspace folder is read from. */
export interface WorkspaceFileSpec {
  readonly relative: string;
  readonly serversKey: 'mcpServers' | 'servers';
  readonly client: string;
}

/** What one file contributes to the workspace tier. */
export interface FileResult {
  readonly servers: { server: WorkspaceServer; at: Position }[];
  readonly warnings: WorkspaceWarning[];
  /** Every server name the file defines, valid or not: they all shadow the next file. */
  readonly names: string[];
}

/** A file that contributes nothing but a warning saying why. */
export function unusableFile(
  file: string,
  detail: string,
  at?: { line: number; column: number },
): FileResult {
  return {
    servers: [],
    warnings: [
      fileWarning('invalid-file', file, `${detail}. No servers were loaded from this file`, at),
    ],
    names: [],
  };
}

/** Parses the text of `file` (BOM removed, not empty) as `spec` says. Throws only on a bug. */
export function parseWorkspaceFile(
  file: string,
  body: string,
  spec: WorkspaceFileSpec,
  context: VariableContext,
): FileResult {
  const nothing = (detail: string, at?: { line: number; column: number }): FileResult =>
    unusableFile(file, detail, at);
  let scanned: ScannedJson;
  try {
    scanned = scanJson(body);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    return nothing(error.reason, lineColumn(body, error.offset));
  }
  const top = scanned.value;
  if (!isRecord(top))
    return nothing(`the top level must be an object, e.g. {"${spec.serversKey}": {}}`);

  const found: { offset: number; warning: WorkspaceWarning }[] = [];
  const positionOf = positionsIn(body);
  const locate = (jsonPath: JsonPath, onKey: boolean): Position & { offset: number } => {
    const offset = offsetOf(scanned, jsonPath, onKey);
    return { offset, ...positionOf(offset), key: formatJsonPath(jsonPath) };
  };
  const warn = (kind: WorkspaceWarningKind, jsonPath: JsonPath, onKey: boolean, detail: string) => {
    const at = locate(jsonPath, onKey);
    const server =
      jsonPath[0] === spec.serversKey && typeof jsonPath[1] === 'string' ? jsonPath[1] : undefined;
    found.push({ offset: at.offset, warning: locatedWarning(kind, file, at, detail, server) });
  };
  const done = (servers: FileResult['servers'], names: string[]): FileResult => ({
    servers,
    warnings: capWarnings(found.sort((a, b) => a.offset - b.offset).map((f) => f.warning)),
    names,
  });

  const topClaims = claimKeys(Object.keys(top).filter((key) => key !== spec.serversKey));
  if (topClaims[0] !== undefined) {
    warn(
      'ignored-trust-claim',
      [topClaims[0]],
      true,
      `${shownClaims(topClaims).join(', ')} ignored: a workspace file cannot grant trust or permissions`,
    );
  }
  const ambiguous = new Set<string>();
  for (const duplicate of scanned.duplicates) {
    const [first, name] = duplicate.path;
    if (first === spec.serversKey && duplicate.path.length === 1) {
      return nothing(
        `"${spec.serversKey}" appears twice; remove one`,
        positionOf(duplicate.keyOffset),
      );
    }
    if (first === spec.serversKey && typeof name === 'string') {
      ambiguous.add(name);
      warn(
        'duplicate-key',
        duplicate.path,
        true,
        `this key appears twice, so readers of the file may disagree on what runs. Server ${shownText(name)} was skipped; remove one`,
      );
    } else {
      warn(
        'duplicate-key',
        duplicate.path,
        true,
        'this key appears twice in the same object; remove one',
      );
    }
  }

  const entries = top[spec.serversKey];
  if (entries === undefined) {
    const other = spec.serversKey === 'servers' ? 'mcpServers' : 'servers';
    if (top[other] !== undefined) {
      warn(
        'servers-key',
        [other],
        true,
        `${spec.client} reads servers from "${spec.serversKey}" in this file, so "${other}" is ignored; rename the key`,
      );
    }
    return done([], []);
  }
  if (!isRecord(entries)) {
    return nothing(
      `"${spec.serversKey}" must be an object mapping server names to entries`,
      locate([spec.serversKey], false),
    );
  }
  const names = Object.keys(entries);
  if (names.length > MAX_SERVERS) {
    return nothing(
      `"${spec.serversKey}" can have at most ${MAX_SERVERS} servers`,
      locate([spec.serversKey], false),
    );
  }
  const servers: FileResult['servers'] = [];
  for (const name of names) {
    if (ambiguous.has(name)) continue;
    const entryPath = [spec.serversKey, name];
    const nameProblem = serverNameProblem(name);
    if (nameProblem !== undefined) {
      warn('invalid-entry', entryPath, true, `${nameProblem}. This server was skipped`);
      continue;
    }
    const value = entries[name];
    const claims = isRecord(value) ? claimKeys(Object.keys(value)) : [];
    const parsed = parseEntry(name, value, shownClaims(claims), file, context);
    if ('problem' in parsed) {
      const { kind, at, detail } = parsed.problem;
      warn(kind, [...entryPath, ...at], false, `${detail}. Server "${name}" was skipped`);
      continue;
    }
    if (claims[0] !== undefined) {
      warn(
        'ignored-trust-claim',
        [...entryPath, claims[0]],
        true,
        `${parsed.server.ignoredTrustClaims.join(', ')} ignored: a workspace file cannot approve a server; it asks before it first starts`,
      );
    }
    servers.push({ server: parsed.server, at: locate(entryPath, true) });
  }
  return done(servers, names);
}

/** Stands in for a missing `command` so the schema checks the rest of an entry that only
 * extends a user-tier server; it never leaves this function. */
const NO_COMMAND = 'switchyard-no-command';

/** Checks one entry with the user tier's schema, keeping only the fields the file wrote. */
function parseEntry(
  name: string,
  value: unknown,
  claims: string[],
  file: string,
  context: VariableContext,
): { server: WorkspaceServer } | { problem: EntryProblem } {
  const raw = isRecord(value) ? value : undefined;
  // Own keys only: what the file wrote, never what an object inherits.
  const has = (key: string) =>
    raw !== undefined && Object.hasOwn(raw, key) && raw[key] !== undefined;
  const hasCommand = has('command');
  const isLocal = raw === undefined || readTransport(raw).kind === 'stdio';
  const checked = ServerEntrySchema.safeParse(
    raw === undefined || hasCommand || !isLocal ? value : { ...raw, command: NO_COMMAND },
  );
  if (!checked.success) {
    const [first, ...rest] = checked.error.issues;
    const unsupported = first?.code === 'custom' && first.params?.code === UNSUPPORTED_TRANSPORT;
    const more =
      rest.length === 0 ? '' : ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})`;
    return {
      problem: {
        kind: unsupported ? 'unsupported-transport' : 'invalid-entry',
        at: (first?.path ?? []).map((s) => (typeof s === 'symbol' ? String(s) : s)),
        detail: `${first?.message ?? 'invalid entry'}${more}`,
      },
    };
  }
  if (has('envFile')) {
    return {
      problem: {
        kind: 'unsupported-feature',
        at: ['envFile'],
        detail:
          '"envFile" is not supported: a repository file must not pick which secrets a server reads. Write the variables in "env"',
      },
    };
  }
  const entry = checked.data;
  const server: WorkspaceServer = {
    name,
    file,
    ignoredTrustClaims: claims,
    ...(hasCommand ? { command: entry.command } : {}),
    ...(entry.remote === undefined ? {} : { remote: entry.remote }),
    ...(has('args') ? { args: entry.args } : {}),
    ...(has('env') ? { env: entry.env } : {}),
    ...(has('cwd') && entry.cwd !== undefined ? { cwd: entry.cwd } : {}),
    ...(entry.prefix === undefined ? {} : { prefix: entry.prefix }),
    ...(has('timeout') ? { handshakeTimeoutMs: entry.handshakeTimeoutMs } : {}),
    ...(has('toolTimeout') ? { toolTimeoutMs: entry.toolTimeoutMs } : {}),
    ...(has('disabled') ? { disabled: entry.disabled } : {}),
  };
  const substituted = substituteEntry(server, context);
  return 'problem' in substituted ? substituted : { server: substituted };
}
