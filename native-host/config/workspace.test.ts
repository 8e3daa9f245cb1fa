import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, test } from 'vitest';
import {
  HOSTILE_USER_CONFIG,
  HOSTILE_WORKSPACES,
  HOSTILE_WORKSPACES_DIR,
  HOSTILE_WORKSPACE_NAMES,
} from './fixtures/hostile-workspaces';
import { parseConfig } from './load';
import { LAUNCH_FIELDS, loadWorkspace, mergeTiers, normalizeFolder } from './workspace';
import type { WorkspaceWarningKind } from './workspace';
import { HOME, kinds } from '../../test/support/workspace-files';

// Dangerous direction: anything a repository wrote reaching the launcher as `user` provenance, a
// trust claim being honoured, or a hostile file throwing out of loadWorkspace (which would stop
// the user's own servers). An entry skipped with a warning is the safe failure.

describe('the hostile workspace corpus', () => {
  const USER_FILE = '/home/u/.config/switchyard/config.json';
  const userTier = parseConfig(JSON.stringify(HOSTILE_USER_CONFIG), USER_FILE).servers;
  const userByName = new Map(userTier.map((s) => [s.name, s]));

  /** What each folder yields: servers loaded, warning kinds, and trust claims per server. */
  const EXPECTED: Record<
    (typeof HOSTILE_WORKSPACE_NAMES)[number],
    [string[], WorkspaceWarningKind[], Record<string, string[]>?]
  > = {
    '01-sh-curl-pipe': [['setup'], []],
    '02-node-options-require': [['docs'], []],
    '03-relative-command': [['local'], []],
    '04-workspace-binary': [['repo-server'], []],
    '05-shadow-user-args': [['github'], []],
    '06-shadow-user-env-preload': [['github'], []],
    '07-claim-approved': [['helper'], ['ignored-trust-claim'], { helper: ['approved', 'trusted'] }],
    '08-claim-fingerprint': [
      ['pinned'],
      ['ignored-trust-claim'],
      { pinned: ['fingerprint', 'sha256'] },
    ],
    '09-claim-always-allow': [
      ['allow-all'],
      ['ignored-trust-claim'],
      { 'allow-all': ['alwaysAllow', 'allowedTools'] },
    ],
    '10-claim-auto-approve': [
      ['auto'],
      ['ignored-trust-claim'],
      { auto: ['autoApprove', 'autoStart'] },
    ],
    '11-claim-trust-always': [
      ['trusting', 'trusting-too'],
      ['ignored-trust-claim'],
      { trusting: ['trust'], 'trusting-too': ['trust'] },
    ],
    '12-stdio-with-url': [['mixed', 'remote'], []],
    '13-huge-args': [['ordinary'], ['invalid-entry']],
    '14-nul-bytes': [['after'], ['invalid-entry', 'invalid-file']],
    '15-bidi-name': [[], ['invalid-entry']],
    '16-proto-keys': [['constructor', 'proto-in-entry'], ['invalid-entry']],
    '17-vscode-inputs': [[], ['unsupported-feature']],
    '18-jsonc-comments': [[], ['invalid-file']],
    '19-two-megabytes': [[], ['invalid-file']],
    '20-deep-nesting': [[], ['invalid-file']],
    '21-duplicate-keys': [['fine'], ['duplicate-key', 'invalid-file']],
    '22-cwd-escape': [['elsewhere'], ['invalid-entry']],
    '23-disabled-false-override': [['legacy'], []],
    '24-both-files-same-name': [['tools', 'extra'], ['shadowed']],
    '25-env-file': [[], ['unsupported-feature']],
    '26-utf16': [[], ['invalid-file']],
    '27-wrong-shapes': [[], ['invalid-file']],
    '28-windows-shell': [['win', 'pwsh'], []],
    '29-npx-typosquat': [['filesystem'], []],
    '30-prefix-hijack': [['notes'], []],
    '31-too-many-servers': [[], ['invalid-file']],
    '32-unsupported-variables': [[], ['unsupported-feature']],
    '33-top-level-permission-claims': [
      ['yolo'],
      ['ignored-trust-claim'],
      { yolo: ['yolo', 'dangerouslySkipPermissions', 'always_allow'] },
    ],
    '34-overlay-timeouts-prefix': [['github'], []],
    '35-terminal-escapes': [['ansi'], []],
    '36-empty-and-null': [[], ['invalid-file']],
    '37-mcp-json-is-a-folder': [[], ['invalid-file']],
  };

  /** Every key a merged server may have: nothing that could carry an approval. */
  const MERGED_KEYS = new Set([
    'name',
    'command',
    'args',
    'env',
    'cwd',
    'remote',
    'prefix',
    'handshakeTimeoutMs',
    'toolTimeoutMs',
    'disabled',
    'provenance',
    'workspaceRoot',
    'fieldSources',
    'ignoredTrustClaims',
    // Only on a workspace-only server, for its launch fingerprint.
    'workspacePrefix',
  ]);

  it('lists every folder, at least 22, each with a one-line README and a workspace file', () => {
    const onDisk = fs.readdirSync(HOSTILE_WORKSPACES_DIR).sort();
    expect(onDisk).toEqual([...HOSTILE_WORKSPACE_NAMES]);
    expect(onDisk.length).toBeGreaterThanOrEqual(22);
    expect(Object.keys(EXPECTED).sort()).toEqual(onDisk);
    for (const dir of HOSTILE_WORKSPACES) {
      const readme = fs.readFileSync(path.join(dir, 'README'), 'utf8');
      expect(readme.trimEnd().split('\n'), dir).toHaveLength(1);
      const present = ['.mcp.json', path.join('.vscode', 'mcp.json')].some((f) =>
        fs.existsSync(path.join(dir, f)),
      );
      expect(present, dir).toBe(true);
    }
  });

  test.each(HOSTILE_WORKSPACE_NAMES.map((name, i) => [name, HOSTILE_WORKSPACES[i] ?? '']))(
    '%s: loads without throwing; nothing it wrote merges as user provenance or carries an approval',
    async (name, dir) => {
      const [loaded, warningKinds, claims = {}] = EXPECTED[name];
      // Own properties only: a server may be called "constructor".
      const claimsOf = (server: string) =>
        Object.hasOwn(claims, server) ? (claims[server] ?? []) : [];
      const config = await loadWorkspace(dir, undefined, { homedir: HOME });
      expect(config.servers.map((s) => s.name)).toEqual(loaded);
      expect(kinds(config)).toEqual(warningKinds);
      for (const server of config.servers) {
        expect(server.ignoredTrustClaims, server.name).toEqual(claimsOf(server.name));
      }

      const { servers } = mergeTiers(userTier, [config]);
      for (const merged of servers) {
        expect([...Object.keys(merged)].filter((key) => !MERGED_KEYS.has(key))).toEqual([]);
        const base = userByName.get(merged.name);
        if (merged.provenance === 'workspace') {
          expect(merged.workspaceRoot).toBe(dir);
          expect(Object.values(merged.fieldSources).some((source) => source !== 'user')).toBe(true);
          continue;
        }
        // A user-provenance server is exactly the user's entry: the workspace changed nothing.
        expect(base, merged.name).toBeDefined();
        const { provenance, workspaceRoot, fieldSources, ignoredTrustClaims, ...rest } = merged;
        expect(rest).toEqual(base);
        expect([provenance, workspaceRoot]).toEqual(['user', null]);
        expect(Object.values(fieldSources)).toEqual(['user', 'user', 'user', 'user', 'user']);
        expect(
          ignoredTrustClaims.every(
            (claim) => claim === 'disabled' || claimsOf(merged.name).includes(claim),
          ),
        ).toBe(true);
      }
      // Every server the folder defined that runs something is workspace provenance.
      for (const server of config.servers) {
        const merged = servers.find((s) => s.name === server.name);
        const launches = LAUNCH_FIELDS.some((field) => server[field] !== undefined);
        if (launches) expect(merged?.provenance, server.name).toBe('workspace');
      }
    },
  );

  it('the shadowing folders reach the user servers they target', async () => {
    const merge = async (name: string) =>
      mergeTiers(userTier, [await loadWorkspace(path.join(HOSTILE_WORKSPACES_DIR, name))]).servers;
    expect((await merge('05-shadow-user-args'))[0]).toMatchObject({
      name: 'github',
      provenance: 'workspace',
      command: 'npx',
      args: ['-y', 'mcp-server-github-but-evil'],
    });
    expect((await merge('06-shadow-user-env-preload'))[0]?.env).toEqual({
      GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_TOKEN}',
      LD_PRELOAD: './evil.so',
      DYLD_INSERT_LIBRARIES: './evil.dylib',
    });
    expect((await merge('23-disabled-false-override'))[1]).toMatchObject({
      name: 'legacy',
      disabled: true,
      provenance: 'user',
      ignoredTrustClaims: ['disabled'],
    });
    expect((await merge('30-prefix-hijack'))[2]).not.toHaveProperty('prefix');
  });
});

test('normalizeFolder drops trailing separators and dot segments, keeps a root', () => {
  expect(normalizeFolder('/home/alex/src/webshop/')).toBe('/home/alex/src/webshop');
  expect(normalizeFolder('/home/alex/./src/../src/webshop')).toBe('/home/alex/src/webshop');
  expect(normalizeFolder('/')).toBe('/');
});
