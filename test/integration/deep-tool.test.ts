import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TOOL_DEFINITION_DEPTH } from '../../native-host/shared/tool-definition';
import { FIXTURE_SERVER, HostHarness, ROOT, processesMatching } from './host-harness';

// A server that lists a tool nested 20,000 levels deep (16 KB of JSON, which JSON.parse takes):
// every recursive walk of the host's over a definition (pin hashes, the listing's change check,
// token estimates) would overflow the stack on it, and an exception there, at start or in the
// refresh after `list_changed`, took the whole host down with every other server. It costs that
// one tool now, skipped with a warning, whether it comes in the first listing or a later one.

const HOSTILE_SERVER = join(ROOT, 'test/fixtures/hostile-server.mjs');

interface Summary {
  name: string;
  status: { state: string };
}

const names = async (host: HostHarness): Promise<string[]> =>
  (await host.call<{ tools: Array<{ name: string }> }>('tools/list')).tools.map((t) => t.name);

describe('a tool nested deeper than the host walks', () => {
  const marker = `deep-tool-${randomUUID()}`;
  let host: HostHarness;

  beforeAll(async () => {
    host = await HostHarness.start(
      {
        deep: { command: process.execPath, args: [HOSTILE_SERVER, '--deep-tool', marker] },
        later: {
          command: process.execPath,
          args: [HOSTILE_SERVER, '--deep-tool', 'later', marker],
        },
        good: { command: process.execPath, args: [FIXTURE_SERVER, marker] },
      },
      { toolPolicy: { later__deepen: 'allow', good__ok: 'allow' } },
    );
  });

  afterAll(async () => {
    await host.close();
    expect(processesMatching(marker)).toEqual([]);
  });

  it('in the first listing: the host starts every server and skips that tool, saying why', async () => {
    const servers = (await host.settled()) as Summary[];
    expect(servers.map((s) => [s.name, s.status.state])).toEqual([
      ['deep', 'running'],
      ['later', 'running'],
      ['good', 'running'],
    ]);
    const listed = await names(host);
    expect(listed).toContain('deep__ok');
    expect(listed).toContain('good__ok');
    expect(listed).not.toContain('deep__deep');
    await host.until(
      () =>
        host.stderr
          .join('')
          .includes(
            `skipped tool 'deep': tool: nested deeper than ${String(MAX_TOOL_DEFINITION_DEPTH)} levels`,
          ),
      'the skipped-tool warning',
    );
  });

  it('in a later listing, after list_changed: the server keeps its other tools, the host answers', async () => {
    const seen = host.notifications.length;
    await host.call('tools/call', { name: 'later__deepen', arguments: {} });
    await host.until(
      () =>
        host.notifications
          .slice(seen)
          .some(
            (n) => n.method === 'notifications/tools/changed' && n.params['server'] === 'later',
          ),
      'tools/changed for later',
    );
    expect((await host.hello()).result).toBeDefined();
    const listed = await names(host);
    expect(listed).toContain('later__ok');
    expect(listed).not.toContain('later__deep');
    const result = await host.call<{ content: Array<{ text?: string }> }>('tools/call', {
      name: 'good__ok',
      arguments: {},
    });
    expect(JSON.stringify(result.content)).toContain('ok');
  });
});
