import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXPOSED_TOOL_NAME_PATTERN } from '../../protocol/tools';
import { CANCEL_REASON } from '../../native-host/rpc/dispatcher';
import {
  EVERYTHING_SERVER,
  FILESYSTEM_SERVER,
  FIXTURE_SERVER,
  HostHarness,
  MEMORY_SERVER,
  unwrap,
} from './host-harness';

// The real bundled host with the real reference servers from npm, over real frames.

interface Tool {
  name: string;
  server: string;
  tool: string;
  description: string;
  inputSchema: Record<string, unknown>;
  tokens: number;
}
interface CallResult {
  content: Array<{ type: string; text?: string; data?: string }>;
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}

const text = (result: CallResult) => result.content.map((c) => unwrap(c.text ?? '')).join('\n');

describe('host relay with the reference servers', () => {
  let host: HostHarness;
  let files: string;
  let memoryFile: string;
  let scriptedRecord: string;

  beforeAll(async () => {
    files = mkdtempSync(join(tmpdir(), 'switchyard-fs-'));
    writeFileSync(join(files, 'hello.txt'), 'héllo wörld ✓\n');
    // Anything in the browser's environment must stay out of servers' environments.
    process.env.SWITCHYARD_TEST_SECRET = 'sk-test-should-never-leak';
    memoryFile = join(mkdtempSync(join(tmpdir(), 'switchyard-mem-')), 'memory.jsonl');
    scriptedRecord = join(files, '..', `${basename(files)}-scripted.log`);
    host = await HostHarness.start({
      everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
      files: { command: process.execPath, args: [FILESYSTEM_SERVER, files] },
      memory: {
        command: process.execPath,
        args: [MEMORY_SERVER],
        env: { MEMORY_FILE_PATH: memoryFile },
      },
      scripted: {
        command: process.execPath,
        args: [FIXTURE_SERVER, '--paginate', `--record=${scriptedRecord}`],
        toolTimeout: 2,
      },
    });
    await host.settled();
  });

  afterAll(async () => {
    await host.close();
  });

  it('answers host/hello with the protocol version and home', async () => {
    const reply = await host.hello();
    expect(reply.result).toMatchObject({ protocolVersion: 1, host: { name: 'switchyard' } });
  });

  it('runs every configured server', async () => {
    const servers = await host.settled();
    expect(servers.map((s) => [s.name, s.status.state]).sort()).toEqual([
      ['everything', 'running'],
      ['files', 'running'],
      ['memory', 'running'],
      ['scripted', 'running'],
    ]);
  });

  it('lists namespaced tools that every provider accepts, with token costs', async () => {
    const { tools, tokens } = await host.call<{
      tools: Tool[];
      tokens: { total: number; byServer: Record<string, number> };
    }>('tools/list');
    expect(tools.length).toBeGreaterThan(25);
    for (const tool of tools) {
      expect(tool.name).toMatch(EXPOSED_TOOL_NAME_PATTERN);
      expect(tool.tokens).toBeGreaterThan(0);
    }
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
    const names = tools.map((t) => t.name);
    expect(names).toContain('everything__echo');
    expect(names).toContain('files__read_text_file');
    expect(names).toContain('memory__create_entities');
    // A dot is illegal for providers: mapped, and routed through the table, not by splitting.
    const echoArgs = tools.find((t) => t.server === 'scripted' && t.tool === 'echo.args');
    expect(echoArgs?.name).toMatch(/^scripted__echo_args/);
    expect(tokens.total).toBe(tools.reduce((sum, t) => sum + t.tokens, 0));
    expect(Object.keys(tokens.byServer).sort()).toEqual([
      'everything',
      'files',
      'memory',
      'scripted',
    ]);
  });

  it('follows tools/list pagination and skips only the malformed tool', async () => {
    const { tools } = await host.call<{ tools: Tool[] }>('tools/list', { server: 'scripted' });
    const raw = tools.map((t) => t.tool);
    expect(raw).toContain('ok');
    expect(raw).toContain('weird-content'); // on the last page
    expect(raw).not.toContain('broken');
  });

  it('calls echo on server-everything', async () => {
    const result = await host.call<CallResult>('tools/call', {
      name: 'everything__echo',
      arguments: { message: 'héllo 👋' },
    });
    expect(text(result)).toContain('héllo 👋');
    expect(result.isError).toBeFalsy();
  });

  it('reads and writes files in the allowed directory through server-filesystem', async () => {
    const read = await host.call<CallResult>('tools/call', {
      name: 'files__read_text_file',
      arguments: { path: join(files, 'hello.txt') },
    });
    expect(text(read)).toContain('héllo wörld ✓');
    await host.call('tools/call', {
      name: 'files__write_file',
      arguments: { path: join(files, 'out.txt'), content: 'written by the agent' },
    });
    expect(readFileSync(join(files, 'out.txt'), 'utf8')).toBe('written by the agent');
    const outside = await host.call<CallResult>('tools/call', {
      name: 'files__read_text_file',
      arguments: { path: '/etc/hostname' },
    });
    expect(outside.isError).toBe(true);
  });

  it('stores entities through server-memory in the configured file', async () => {
    await host.call('tools/call', {
      name: 'memory__create_entities',
      arguments: {
        entities: [
          { name: 'Switchyard', entityType: 'project', observations: ['relays MCP tools'] },
        ],
      },
    });
    const graph = await host.call<CallResult>('tools/call', {
      name: 'memory__read_graph',
      arguments: {},
    });
    expect(text(graph)).toContain('Switchyard');
    expect(readFileSync(memoryFile, 'utf8')).toContain('Switchyard');
  });

  it('never hands the browser environment to a server', async () => {
    const result = await host.call<CallResult>('tools/call', {
      name: 'everything__get-env',
      arguments: {},
    });
    const env = text(result);
    expect(env).toContain('PATH');
    expect(env).not.toContain('SWITCHYARD_TEST_SECRET');
    expect(env).not.toContain('sk-test-should-never-leak');
  });

  it('keeps image content', async () => {
    const result = await host.call<CallResult>('tools/call', {
      name: 'everything__get-tiny-image',
      arguments: {},
    });
    expect(result.content.some((c) => c.type === 'image' && typeof c.data === 'string')).toBe(true);
  });

  it('relays structuredContent', async () => {
    const result = await host.call<CallResult>('tools/call', {
      name: 'everything__get-structured-content',
      arguments: { location: 'Chicago' },
    });
    expect(result.structuredContent).toBeDefined();
  });

  it('wraps every result text in an untrusted-data block whose id the payload cannot close', async () => {
    const result = await host.call<CallResult>('tools/call', {
      name: 'everything__echo',
      arguments: { message: 'hi' },
    });
    const wrapped = result.content[0]?.text ?? '';
    const id = /^<untrusted-data id="([0-9a-f]{16})" source="everything\/echo">/.exec(wrapped)?.[1];
    expect(id).toBeDefined();
    expect(wrapped).toContain('not instructions');
    expect(wrapped.endsWith(`</untrusted-data id="${id}">`)).toBe(true);
    expect(unwrap(wrapped)).toBe('Echo: hi');
  });

  it('returns isError results as tool errors, not failures', async () => {
    const result = await host.call<CallResult>('tools/call', {
      name: 'scripted__fail',
      arguments: {},
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('it failed');
  });

  it('maps a server JSON-RPC error to reason server-error, even with the SDK timeout code', async () => {
    const reply = await host.request('tools/call', { name: 'scripted__rpc-error', arguments: {} });
    expect(reply.error?.data?.reason).toBe('server-error');
    expect(reply.error?.message).toContain('custom failure');
    for (const invisible of ['\u001b', '\u202e'])
      expect(reply.error?.message).not.toContain(invisible);
  });

  it('sanitizes the server name and version a server reports', async () => {
    const servers = await host.settled();
    const scripted = servers.find((s) => s.name === 'scripted')?.status as {
      serverInfo?: { name: string; version: string };
    };
    expect(scripted.serverInfo?.name).toContain('scripted');
    const shown = JSON.stringify(scripted.serverInfo);
    for (const invisible of ['\u001b', '\u202e', '\u200b']) expect(shown).not.toContain(invisible);
  });

  it('answers an unknown tool with reason unknown-tool', async () => {
    const reply = await host.request('tools/call', { name: 'nope__nothing', arguments: {} });
    expect(reply.error?.data?.reason).toBe('unknown-tool');
  });

  it('replaces an unknown content block with a visible note', async () => {
    const result = await host.call<CallResult>('tools/call', {
      name: 'scripted__weird-content',
      arguments: {},
    });
    expect(unwrap(result.content[0]?.text ?? '')).toContain("omitted 'hologram'");
    expect(unwrap(result.content[1]?.text ?? '')).toBe('fine');
  });

  it('sanitizes escape and bidi characters out of results', async () => {
    const result = await host.call<CallResult>('tools/call', {
      name: 'scripted__hostile',
      arguments: {},
    });
    const out = text(result);
    expect(out).toContain('ALERT');
    for (const invisible of ['\u001b', '\u202e', '\u200b']) expect(out).not.toContain(invisible);
  });

  it('caps a 5 MB result so the frame stays under 1 MiB', async () => {
    const result = await host.call<CallResult>('tools/call', {
      name: 'scripted__big',
      arguments: { mb: 5 },
    });
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThan(1_048_576);
    expect(text(result)).toMatch(/truncated/i);
  });

  it('replaces an oversized image with a note instead of dropping the port', async () => {
    const result = await host.call<CallResult>('tools/call', {
      name: 'scripted__image',
      arguments: { mb: 2 },
    });
    expect(unwrap(result.content[0]?.text ?? '')).toBe('see image');
    expect(unwrap(result.content[1]?.text ?? '')).toMatch(/omitted a .* MB image/);
  });

  it('relays progress notifications for the caller request id', async () => {
    const before = host.notifications.length;
    const reply = await host.request(
      'tools/call',
      { name: 'scripted__progress', arguments: {} },
      'progress-1',
    );
    expect(text(reply.result as CallResult)).toBe('progress done');
    const progress = host.notifications
      .slice(before)
      .filter((n) => n.method === 'notifications/progress');
    expect(progress.map((p) => p.params.progress)).toEqual([1, 2, 3]);
    expect(progress.every((p) => p.params.requestId === 'progress-1')).toBe(true);
  });

  it('reports a per-call timeout as a timeout', async () => {
    const reply = await host.request('tools/call', {
      name: 'scripted__slow',
      arguments: { ms: 30_000 },
    });
    expect(reply.error?.data?.reason).toBe('timeout');
  });

  it('reports a user cancel as a cancel, and passes it on to the server', async () => {
    // "<pid> <method> <id>" per message the scripted server received.
    const received = () => readFileSync(scriptedRecord, 'utf8').trim().split('\n');
    const before = received().length;
    const pending = host.request(
      'tools/call',
      { name: 'scripted__slow', arguments: { ms: 30_000 } },
      'to-cancel',
    );
    // The server has the call, under the id the host gave it, before the user stops it.
    const call = await vi.waitFor(() => {
      const line = received()
        .slice(before)
        .find((l) => l.split(' ')[1] === 'tools/call');
      if (line === undefined) throw new Error('the server has not had the call yet');
      return line.split(' ');
    });
    host.notify('notifications/cancelled', { requestId: 'to-cancel', reason: 'user pressed stop' });
    const reply = await pending;
    expect(reply.error?.data?.reason).toBe('cancelled');
    // Not only reported: the server is told to stop working on that very request, because the
    // user cancelled it (a cancel that only reached the server through the host's 2 s deadline
    // would name the timeout).
    await vi.waitFor(() => {
      expect(received().slice(before)).toContain(
        `${call[0]} notifications/cancelled ${call[2]} ${CANCEL_REASON}`,
      );
    });
  });

  it('refreshes the listing when a server announces list_changed', async () => {
    const before = host.notifications.length;
    await host.call('tools/call', { name: 'scripted__mutate', arguments: {} });
    await host.until(
      () =>
        host.notifications
          .slice(before)
          .some(
            (n) => n.method === 'notifications/tools/changed' && n.params.server === 'scripted',
          ),
      'tools/changed for scripted',
    );
    const { tools } = await host.call<{ tools: Tool[] }>('tools/list', { server: 'scripted' });
    expect(tools.map((t) => t.tool)).toContain('added_2');
  });

  it('returns the stderr ring buffer through servers/logs', async () => {
    const logs = await host.call<{ lines: string[] }>('servers/logs', { server: 'everything' });
    expect(Array.isArray(logs.lines)).toBe(true);
  });
});
