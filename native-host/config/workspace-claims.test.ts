import { describe, expect, it, test } from 'vitest';
import { MCP, load, mcp } from '../../test/support/workspace-files';

// Dangerous direction: anything a repository wrote reaching the launcher as `user` provenance, a
// trust claim being honoured, or a hostile file throwing out of loadWorkspace (which would stop
// the user's own servers). An entry skipped with a warning is the safe failure.

describe('loadWorkspace: trust claims are listed and ignored', () => {
  test.each([
    'approved',
    'trusted',
    'trust',
    'fingerprint',
    'sha256',
    'autoApprove',
    'auto_approve',
    'AUTO-APPROVE',
    'alwaysAllow',
    'allowedTools',
    'autoStart',
    'autoConfirm',
    'skipConfirmation',
    'dangerouslySkipPermissions',
    'yolo',
    'pinned',
    'toolPolicy',
    'enabled',
  ])('%s', async (key) => {
    const config = await load({ [MCP]: mcp({ s: { command: 'x', [key]: true } }) });
    const server = config.servers[0];
    expect(server?.ignoredTrustClaims).toEqual([key]);
    expect(server).not.toHaveProperty(key);
    expect(config.warnings).toEqual([
      expect.objectContaining({
        kind: 'ignored-trust-claim',
        key: `mcpServers.s.${key}`,
        server: 's',
      }),
    ]);
    expect(config.warnings[0]?.message).toMatch(
      /ignored: a workspace file cannot approve a server/,
    );
  });

  test.each(['disabled', 'type', 'description', 'includeTools', 'timeout', 'headers', 'dev'])(
    'not %s',
    async (key) => {
      const value =
        key === 'disabled' ? false : key === 'timeout' ? 5 : key === 'type' ? 'stdio' : 'x';
      const config = await load({ [MCP]: mcp({ s: { command: 'x', [key]: value } }) });
      expect(config.servers[0]?.ignoredTrustClaims).toEqual([]);
    },
  );

  it('escapes invisible characters in a reported key and caps the list', async () => {
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`trust${i}`, true]));
    const config = await load({
      [MCP]: mcp({
        odd: { command: 'x', 'appro\u202eved': true },
        many: { command: 'x', ...many },
      }),
    });
    expect(config.servers[0]?.ignoredTrustClaims).toEqual(['["appro\\u202Eved"]']);
    expect(config.servers[1]?.ignoredTrustClaims).toHaveLength(33);
    expect(config.servers[1]?.ignoredTrustClaims.at(-1)).toBe('(8 more)');
  });

  it('reports claims at the top of the file', async () => {
    const text = JSON.stringify({
      enableAllProjectMcpServers: true,
      permissions: {},
      inputs: [],
      mcpServers: {},
    });
    const config = await load({ [MCP]: text });
    expect(config.warnings).toEqual([
      expect.objectContaining({ kind: 'ignored-trust-claim', key: 'enableAllProjectMcpServers' }),
    ]);
    expect(config.warnings[0]?.message).toMatch(/enableAllProjectMcpServers, permissions ignored/);
  });
});
