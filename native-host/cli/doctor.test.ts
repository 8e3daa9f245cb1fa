import { describe, expect, test } from 'vitest';
import type { ServerState, ServerSummary } from '../../protocol/servers';
import { serversTable } from './doctor';

function summary(name: string, status: ServerState, toolCount = 0): ServerSummary {
  return {
    ...{ name, provenance: 'user', workspaceRoot: null, disabled: false, command: 'node' },
    ...{ args: ['server.js'], resolvedCommand: '/usr/bin/node', cwd: null, envKeys: [] },
    ...{ status, toolCount, tokens: toolCount * 100 },
  };
}

describe('serversTable', () => {
  const lines = serversTable([
    summary(
      'memory',
      {
        state: 'running',
        pid: 42,
        handshakeMs: 211.6,
        protocolVersion: '2025-11-25',
        serverInfo: { name: 'memory-server', version: '0.6.3' },
      },
      9,
    ),
    summary('ghost', {
      state: 'failed',
      reason: 'command-not-found',
      message: "'ghost' was not found",
    }),
  ]).split('\n');

  test('shows the MCP revision each running server negotiated', () => {
    expect(lines[0]).toMatch(/^SERVER\s+STATE\s+MCP\s+HANDSHAKE\s+TOOLS\s+TOKENS\s+COMMAND$/);
    expect(lines[1]).toMatch(
      /^memory\s+running\s+2025-11-25\s+212 ms\s+9\s+900\s+\/usr\/bin\/node server\.js$/,
    );
  });

  test('a server that is not running has no revision or handshake', () => {
    expect(lines[2]).toMatch(
      /^ghost\s+failed: command-not-found\s+-\s+-\s+0\s+0\s+\/usr\/bin\/node/,
    );
  });
});
