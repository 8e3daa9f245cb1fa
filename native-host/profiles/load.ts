import { z } from 'zod';
import {
  DEFAULT_PROFILE_ID,
  MAX_PROFILES,
  ProfileIdSchema,
  ProfileNameSchema,
  ProfileSchema,
  type Profile,
} from '../../protocol/profiles';
import { matchPatternProblem } from '../../protocol/match-pattern';
import { scanJson } from '../config/json-scan';
import { type JsonPath } from '../config/json-format';
import { formatJsonPath, lineColumn } from '../config/json-format';
import { MAX_CONFIG_FILE_BYTES } from '../config/load';
import { readFileBounded } from '../shared/bounded-read';

/**
 * Reads `profiles` from config.json (design D10): a list of profiles, each checked on its own, so
 * one bad profile costs only itself, with a warning naming file, line, column and key.
 *
 * A bad profile fails closed. Skipping it would hand the sites it names to the default profile,
 * which may show more than the profile meant to (a read-only profile with a typo must not become
 * "every tool" on its site). So a profile whose id can be read is kept as a stand-in that enables
 * no server, selected by those of its patterns that parse; the same goes for a `default` entry.
 * Only a profile without a usable id (nothing can select or fix it) is dropped.
 */

export interface ProfileLoadResult {
  /** Usable profiles and stand-ins, in file order, ids unique. */
  readonly profiles: Profile[];
  /** One line per problem: `file:line:column: profiles[2].match[0]: what to do`. */
  readonly warnings: string[];
}

/** Locates a JSON path in the file, for warnings; undefined when the text is not at hand. */
export type Locate = (path: JsonPath) => { line: number; column: number } | undefined;

const EntrySchema = z.record(z.string(), z.unknown());

/** Parses the `profiles` value of a config file. Pure; never throws. */
export function parseProfiles(
  raw: unknown,
  file: string,
  locate: Locate = () => undefined,
): ProfileLoadResult {
  const where = (path: JsonPath): string => {
    const at = locate(path);
    const key = formatJsonPath(path);
    return `${file}${at === undefined ? '' : `:${at.line}:${at.column}`}: ${key}`;
  };
  if (raw === undefined) return { profiles: [], warnings: [] };
  if (!Array.isArray(raw)) {
    // The user meant to have profiles and none can be read: no site gets tools until fixed.
    return {
      profiles: [lockedDefault()],
      warnings: [
        `${where(['profiles'])}: must be a list of profiles, e.g. [{"id": "github", "name": "GitHub", "match": ["https://github.com/*"], "mode": "read-only"}]. Until it is fixed, no site gets MCP tools`,
      ],
    };
  }
  const profiles: Profile[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  raw.forEach((entry: unknown, index) => {
    const path: JsonPath = ['profiles', index];
    const parsed = ProfileSchema.safeParse(entry);
    const id = ProfileIdSchema.safeParse(EntrySchema.safeParse(entry).data?.['id']).data;
    if (id !== undefined && seen.has(id)) {
      warnings.push(
        `${where([...path, 'id'])}: a profile with id "${id}" comes earlier in the list; this one was ignored. Give it another id or remove it`,
      );
      return;
    }
    if (parsed.success && index < MAX_PROFILES) {
      seen.add(parsed.data.id);
      profiles.push(parsed.data);
      return;
    }
    const issue = parsed.error?.issues[0];
    const issuePath: JsonPath = [...path, ...(issue?.path ?? []).map(segment)];
    const problem =
      issue === undefined
        ? `config.json holds at most ${MAX_PROFILES} profiles`
        : `${issue.message}${moreOf(parsed.error?.issues.length ?? 1)}`;
    if (id === undefined) {
      warnings.push(
        `${where(issuePath)}: ${problem}. This profile has no usable id, so it was ignored and the sites it names use the default profile; fix it`,
      );
      return;
    }
    seen.add(id);
    profiles.push(standIn(id, entry));
    warnings.push(
      `${where(issuePath)}: ${problem}. Profile "${id}" shows no tools until this is fixed`,
    );
  });
  return { profiles, warnings };
}

/**
 * Loads `profiles` from the config file's parsed top level. When there is something to warn
 * about, the file is read again to say where (a file changed since is only located less well).
 */
export async function loadProfiles(
  file: string,
  raw: Record<string, unknown>,
  readText: (file: string) => Promise<string> = readText_,
): Promise<ProfileLoadResult> {
  const plain = parseProfiles(raw['profiles'], file);
  if (plain.warnings.length === 0) return plain;
  let text: string;
  try {
    text = await readText(file);
  } catch {
    return plain;
  }
  let scanned: ReturnType<typeof scanJson>;
  try {
    scanned = scanJson(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch {
    return plain;
  }
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  return parseProfiles(raw['profiles'], file, (path) => {
    for (let length = path.length; length >= 0; length--) {
      const location = scanned.locate(path.slice(0, length));
      if (location === undefined) continue;
      const offset =
        length < path.length && location.keyOffset !== undefined
          ? location.keyOffset
          : location.valueOffset;
      return lineColumn(body, offset);
    }
    return undefined;
  });
}

async function readText_(file: string): Promise<string> {
  return Buffer.from(await readFileBounded(file, MAX_CONFIG_FILE_BYTES)).toString('utf8');
}

/** A profile that enables nothing, selected by the patterns of the broken entry that parse. */
function standIn(id: string, entry: unknown): Profile {
  const fields = EntrySchema.safeParse(entry).data ?? {};
  const match = z.array(z.string()).safeParse(fields['match']).data ?? [];
  // Schema-valid itself: the extension parses `profiles/list` with the same schema.
  const given = ProfileNameSchema.safeParse(fields['name']).data ?? id;
  const chars = Array.from(given); // by code point: a cut surrogate pair would be invisible
  const name = chars.length > 60 ? `${chars.slice(0, 60).join('')}...` : given;
  return {
    id,
    name: `${name} (invalid: fix config.json)`,
    match:
      id === DEFAULT_PROFILE_ID
        ? []
        : match.filter((pattern) => matchPatternProblem(pattern) === undefined).slice(0, 64),
    servers: [],
    mode: 'read-only',
  };
}

function lockedDefault(): Profile {
  return {
    id: DEFAULT_PROFILE_ID,
    name: 'Default (profiles in config.json are invalid)',
    match: [],
    servers: [],
    mode: 'read-only',
  };
}

function segment(part: PropertyKey): string | number {
  return typeof part === 'number' ? part : String(part);
}

function moreOf(count: number): string {
  return count <= 1 ? '' : ` (and ${count - 1} more problem${count === 2 ? '' : 's'})`;
}
