import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import approvalRequired from '../../protocol/fixtures/errors/approval-required.json';
import toolsList from '../../protocol/fixtures/tools-list.json';
import type { ToolSearchState } from '../../protocol/profiles';
import type { ExposedTool } from '../../protocol/tools';
import { flush } from '../testing/flush';
import { AgentSession } from './agent-session';
import { createBuiltinTools, type TabsApi } from './builtin-tools';
import { pairingProblems } from './pairing';
import { ScriptedProvider, textTurn, toolTurn } from './providers/scripted-provider';
import type { ProviderRequest } from './providers/provider';
import { connectedHostClient } from './testing/connected-host-client';
import { createToolRouter } from './tool-router';
import { SEARCH_TOOLS_SPEC, ToolSearchCatalog } from './tool-search-mode';
import type { ChatMessage } from '../messaging/conversation';

/*
 * Tool search mode end to end in the worker: the real router over a fake native port, the real
 * agent session with a scripted model. Dangerous directions: a tool found by search that runs
 * without the host's approval (it must go through tools/call and its card like any other), server
 * text in a search result that reaches the model outside an untrusted-data block, and a search
 * that goes to the host or the network.
 */

const fixedRandom = (size: number): Uint8Array => new Uint8Array(size).fill(0xab);
const noTabs: TabsApi = {
  activeTab: () => Promise.resolve(undefined),
  getTab: () => Promise.resolve(undefined),
  listTabs: () => Promise.resolve([]),
  readPageText: () => Promise.resolve(''),
  readSelection: () => Promise.resolve(''),
  captureVisible: () => Promise.reject(new Error('no tab to capture')),
};
const ToolCallParams = z.object({
  name: z.string(),
  approval: z.object({ requestId: z.string() }).optional(),
});

/** 40 filler tools, the fixture's shop-db tools, and the search state the host would send. */
function listing(search: ToolSearchState | undefined) {
  const filler: ExposedTool[] = Array.from({ length: 40 }, (_, i) => ({
    name: `notes__tool_${i}`,
    server: 'notes',
    tool: `tool_${i}`,
    description: `Filler tool number ${i} that keeps notes.`,
    inputSchema: { type: 'object' },
    tokens: 30,
    policy: 'ask',
  }));
  return {
    ...toolsList.result,
    tools: [...toolsList.result.tools, ...filler],
    ...(search === undefined ? {} : { search }),
  };
}

const SEARCHING: ToolSearchState = {
  reason: 'over-budget',
  pinned: ['shop-db__query_orders'],
  tokens: 120,
};

async function setup(search: ToolSearchState | null = SEARCHING) {
  const { native, host } = await connectedHostClient();
  native.port.onRequest = (request) => {
    switch (request.method) {
      case 'tools/list':
        native.port.respond(request.id, listing(search ?? undefined));
        return;
      case 'tools/call':
        if (ToolCallParams.parse(request.params).approval === undefined) {
          native.port.fail(request.id, approvalRequired.error);
        } else {
          native.port.respond(request.id, { content: [{ type: 'text', text: 'refunded' }] });
        }
        return;
      default:
        native.port.fail(request.id, { message: 'no', data: { reason: 'unknown-method' } });
    }
  };
  const router = createToolRouter({
    builtins: createBuiltinTools(noTabs, { random: fixedRandom }),
    host,
    random: fixedRandom,
  });
  const hostMethods = () =>
    native.port
      .requests()
      .map((r) => [r.method, ToolCallParams.safeParse(r.params).data?.name])
      .filter(([m]) => m !== 'host/hello');
  return { router, hostMethods };
}

const mcpNames = (request: ProviderRequest) =>
  request.tools.map((t) => t.name).filter((name) => !name.startsWith('browser_'));
const lastResults = (messages: readonly ChatMessage[]) => {
  const last = messages.at(-1);
  return last?.role === 'tool' ? last.results : [];
};

describe('tool search mode: the agent searches, then calls what it found', () => {
  it('offers search_tools and the pinned tool; a found tool runs through the approval card', async () => {
    const { router, hostMethods } = await setup();
    const turns = [
      toolTurn(
        [{ id: 'c1', name: 'search_tools', arguments: { query: 'refund an order' } }],
        (r) => {
          expect(mcpNames(r)).toEqual(['search_tools', 'shop-db__query_orders']);
        },
      ),
      toolTurn(
        [
          {
            id: 'c2',
            name: 'shop-db__refund_order',
            arguments: { orderId: 'A-10483', amountCents: 1999 },
          },
        ],
        (r) => {
          const [found] = lastResults(r.messages);
          expect(found?.status).toBe('ok');
          expect(found?.content).toContain(
            '<untrusted-data id="abababababababab" source="switchyard/search_tools">',
          );
          const line = found?.content
            .split('\n')
            .find((l) => l.includes('"shop-db__refund_order"'));
          expect(JSON.parse(line ?? '{}')).toMatchObject({
            name: 'shop-db__refund_order',
            inputSchema: { required: ['orderId', 'amountCents'] },
          });
          // What was found is offered from the next turn on, so every provider accepts the call.
          expect(mcpNames(r)).toContain('shop-db__refund_order');
          expect(mcpNames(r)).not.toContain('notes__tool_1');
        },
      ),
      toolTurn([{ id: 'c3', name: 'shop-db__drop_tables', arguments: {} }], (r) => {
        expect(lastResults(r.messages).map((x) => [x.status, x.content])).toEqual([
          ['ok', 'refunded'],
        ]);
      }),
      textTurn('Refunded.', (r) => {
        expect(lastResults(r.messages).map((x) => [x.status, x.content])).toEqual([
          [
            'error',
            "There is no tool named 'shop-db__drop_tables' in this conversation. Only some tools are listed: call search_tools with what you need, then call a tool by the exact name it returns.",
          ],
        ]);
      }),
    ];
    const agent = new AgentSession({
      provider: new ScriptedProvider(turns),
      tools: router,
      system: 'test',
    });
    const sending = agent.send('Refund order A-10483');
    for (let i = 0; i < 100 && agent.pendingApprovals().length === 0; i += 1) await flush();
    const [pending] = agent.pendingApprovals();
    expect(pending?.prompt).toMatchObject({
      kind: 'mcp',
      request: { exposedName: 'shop-db__refund_order' },
    });
    agent.resolveApproval(pending?.approvalId ?? '', 'allow-once');
    const summary = await sending;
    expect(summary.reason).toBe('completed');
    expect(pairingProblems(agent.conversation.messages)).toEqual([]);
    // The search ran in the worker; the host saw the listing and the call, twice (asked, then bound).
    expect(hostMethods()).toEqual([
      ['tools/list', undefined],
      ['tools/call', 'shop-db__refund_order'],
      ['tools/call', 'shop-db__refund_order'],
    ]);
    expect(router.toolSearch()).toEqual({ reason: 'over-budget', pinned: 1, searchable: 42 });
  });

  it('without search mode every tool is offered and search_tools is not', async () => {
    const { router } = await setup(null);
    const names = (await router.list()).map((s) => s.name);
    expect(names).not.toContain('search_tools');
    expect(names).toContain('notes__tool_39');
    expect(router.toolSearch()).toBeNull();
    expect(router.discovered()).toEqual([]);
  });
});

describe('ToolSearchCatalog', () => {
  const spec = (name: string, description: string) => ({
    name,
    description,
    inputSchema: { type: 'object' },
    source: { kind: 'mcp' as const, server: 'fs', tool: name, tokens: 10, policy: 'ask' as const },
  });
  const tools = [spec('fs__read_file', 'Read a file.'), spec('fs__write_file', 'Write a file.')];

  it('offers search_tools and the pins it knows, and reports what it found once', () => {
    const catalog = new ToolSearchCatalog(tools, {
      reason: 'setting',
      pinned: ['fs__read_file', 'gone__tool'],
      tokens: 1,
    });
    expect(catalog.offered().map((t) => t.name)).toEqual(['search_tools', 'fs__read_file']);
    expect(catalog.offered()[0]).toBe(SEARCH_TOOLS_SPEC);
    catalog.search({ query: 'file' }, fixedRandom);
    catalog.search({ query: 'write' }, fixedRandom);
    // The pinned tool is offered already; found ones are listed once.
    expect(catalog.found().map((t) => t.name)).toEqual(['fs__write_file']);
  });

  it.each([{}, { query: '' }, { query: 42 }])('bad arguments %j are an error', (args) => {
    const catalog = new ToolSearchCatalog(tools, { reason: 'setting', pinned: [], tokens: 1 });
    expect(catalog.search(args).status).toBe('error');
    expect(catalog.found()).toEqual([]);
  });

  it('a miss says so, unwrapped (it holds no server text)', () => {
    const catalog = new ToolSearchCatalog(tools, { reason: 'setting', pinned: [], tokens: 1 });
    expect(catalog.search({ query: 'weather' })).toEqual({
      status: 'ok',
      content:
        'No tool matches "weather" (searched 2 tools). Try other words: what the tool does, or its server\'s name.',
    });
  });
});
