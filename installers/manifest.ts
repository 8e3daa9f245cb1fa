import { z } from 'zod';
import { GECKO_ID, HOST_NAME, chromiumOrigin } from '../protocol/identity';
import { BROWSER_INFO, type Browser } from './browsers';

/**
 * The native-messaging host manifest, generated from scratch on every install: its origins are
 * exactly the extension ids this install is for, never merged with what a previous file listed
 * (an upgrade must not widen who may start the host).
 */

/** A Chromium extension id: 32 letters a-p (the SHA-256 of the key, hex digits mapped to a-p). */
export const EXTENSION_ID = /^[a-p]{32}$/;

export const HOST_DESCRIPTION =
  'Switchyard: relays the MCP servers on this machine to the Switchyard extension';

export interface ChromiumHostManifest {
  readonly name: string;
  readonly description: string;
  readonly path: string;
  readonly type: 'stdio';
  readonly allowed_origins: readonly string[];
}

export interface FirefoxHostManifest {
  readonly name: string;
  readonly description: string;
  readonly path: string;
  readonly type: 'stdio';
  readonly allowed_extensions: readonly string[];
}

export type HostManifest = ChromiumHostManifest | FirefoxHostManifest;

/** The origins a Chromium-family manifest allows for these ids, deduplicated, in order. */
function allowedOrigins(extensionIds: readonly string[]): string[] {
  return [...new Set(extensionIds)].map(chromiumOrigin);
}

/**
 * The manifest for `browser` pointing at `launcher` (absolute). Chromium family: one
 * `chrome-extension://<id>/` origin per id (trailing slash required, no wildcards); Firefox: the
 * gecko id only. Throws on an invalid id: callers validate user input first.
 */
export function hostManifest(
  browser: Browser,
  launcher: string,
  extensionIds: readonly string[],
): HostManifest {
  const base = { name: HOST_NAME, description: HOST_DESCRIPTION, path: launcher } as const;
  if (BROWSER_INFO[browser].family === 'firefox') {
    return { ...base, type: 'stdio', allowed_extensions: [GECKO_ID] };
  }
  const bad = extensionIds.find((id) => !EXTENSION_ID.test(id));
  if (bad !== undefined) throw new Error(`not a Chromium extension id: ${JSON.stringify(bad)}`);
  if (extensionIds.length === 0) throw new Error('a Chromium manifest needs at least one id');
  return { ...base, type: 'stdio', allowed_origins: allowedOrigins(extensionIds) };
}

/** The file's text: stable key order and a trailing newline, so a re-install is byte-identical. */
export function manifestText(manifest: HostManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** What a manifest found on disk must look like to be read at all (doctor, uninstall). */
export const StoredManifestSchema = z.object({
  name: z.string(),
  description: z.string().optional(),
  path: z.string(),
  type: z.string(),
  allowed_origins: z.array(z.string()).optional(),
  allowed_extensions: z.array(z.string()).optional(),
});
export type StoredManifest = z.infer<typeof StoredManifestSchema>;

/**
 * What is wrong with a manifest found on disk, compared with what this install wrote: one
 * sentence per problem, empty when it is exactly right. Origins must be exactly the expected set:
 * an extra origin (someone widened the file) is a problem, as is a missing one.
 */
export function manifestProblems(
  found: StoredManifest,
  expected: {
    readonly browser: Browser;
    readonly launcher: string;
    readonly ids: readonly string[];
  },
): string[] {
  const problems: string[] = [];
  if (found.name !== HOST_NAME)
    problems.push(`its name is ${JSON.stringify(found.name)}, not ${HOST_NAME}`);
  if (found.type !== 'stdio') problems.push(`its type is ${JSON.stringify(found.type)}, not stdio`);
  if (found.path !== expected.launcher)
    problems.push(`it runs ${JSON.stringify(found.path)}, not the launcher ${expected.launcher}`);
  const firefox = BROWSER_INFO[expected.browser].family === 'firefox';
  const want = firefox ? [GECKO_ID] : allowedOrigins(expected.ids);
  const got = (firefox ? found.allowed_extensions : found.allowed_origins) ?? [];
  const key = firefox ? 'allowed_extensions' : 'allowed_origins';
  const extra = got.filter((o) => !want.includes(o));
  const missing = want.filter((o) => !got.includes(o));
  if (extra.length > 0) problems.push(`${key} also allows ${extra.join(', ')}`);
  if (missing.length > 0) problems.push(`${key} lacks ${missing.join(', ')}`);
  const other = firefox ? found.allowed_origins : found.allowed_extensions;
  if (other !== undefined)
    problems.push(
      `it has ${firefox ? 'allowed_origins' : 'allowed_extensions'}, meant for another browser family`,
    );
  return problems;
}
