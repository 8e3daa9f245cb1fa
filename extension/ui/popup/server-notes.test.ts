import { describe, expect, it, test } from 'vitest';
import type { CrashHistory, ServerState } from '../../../protocol/servers';
import { serverSummary } from '../../testing/server-summary';
import { canEdit, confirmQuestion, crashLine } from './server-notes';

const RUNNING: ServerState = {
  state: 'running',
  pid: 1,
  handshakeMs: 5,
  protocolVersion: '2025-11-25',
  serverInfo: { name: 'x', version: '1' },
};
const CRASHES: CrashHistory = { count: 2, lastExit: { code: null, signal: 'SIGKILL' }, lastAt: 0 };

// A crash that leaves no trace is the failure issue 14 measured; a line in a state whose own
// line says it already is a repeat.
describe('crashLine', () => {
  test.each<[string, ServerState, CrashHistory | null, string | null]>([
    [
      'running again',
      RUNNING,
      CRASHES,
      'Restarted after a crash (2 times); last: signal SIGKILL. Its logs have what it wrote.',
    ],
    [
      'once',
      RUNNING,
      { ...CRASHES, count: 1, lastExit: { code: 3, signal: null } },
      'Restarted after a crash (once); last: exit code 3. Its logs have what it wrote.',
    ],
    ['never crashed', RUNNING, null, null],
    [
      'crashed now (its own line)',
      { state: 'crashed', exit: CRASHES.lastExit, restarts: 2, retryInMs: 100 },
      CRASHES,
      null,
    ],
    [
      'given up (its own line)',
      { state: 'failed', reason: 'crash-loop', message: 'm' },
      CRASHES,
      null,
    ],
    [
      'stopped by the user since',
      { state: 'stopped' },
      CRASHES,
      'Restarted after a crash (2 times); last: signal SIGKILL. Its logs have what it wrote.',
    ],
  ])('%s', (_, status, crashes, line) => {
    expect(crashLine(serverSummary('s', status, { crashes }))).toEqual(line);
  });
});

describe('confirmQuestion', () => {
  it('says a running server stops now and what brings it back', () => {
    const running = serverSummary('memory', RUNNING);
    expect(confirmQuestion('revoke', running)).toBe(
      'Revoke launch trust for memory? It stops now and will not start again until you approve it.',
    );
    expect(confirmQuestion('remove', running)).toBe(
      'Remove memory from your configuration? It stops now; its approval and tool pins are forgotten.',
    );
  });

  it('does not say a stopped server stops', () => {
    const stopped = serverSummary('memory', { state: 'stopped' });
    expect(confirmQuestion('revoke', stopped)).toBe(
      'Revoke launch trust for memory? It will not start again until you approve it.',
    );
  });
});

describe('canEdit', () => {
  it('offers Edit for the user’s local servers only', () => {
    expect(canEdit(serverSummary('a', { state: 'stopped' }))).toBe(true);
    expect(
      canEdit(
        serverSummary('a', { state: 'stopped' }, { provenance: 'workspace', workspaceRoot: '/r' }),
      ),
    ).toBe(false);
    const remote = { url: 'https://x.example/mcp', transport: 'auto' as const, headerNames: [] };
    expect(canEdit(serverSummary('a', { state: 'stopped' }, { remote }))).toBe(false);
  });
});
