import { describe, expect, test } from 'vitest';
import { estimateTokens, estimateToolTokens } from '../../protocol/token-estimate';
import { contextMeter } from './context-meter';
import type { ToolSpec } from './tool-outcome';

const builtin: ToolSpec = {
  name: 'browser_list_tabs',
  description: 'List the open tabs.',
  inputSchema: { type: 'object', properties: {} },
  source: { kind: 'builtin' },
};

function mcp(name: string, server: string, tokens: number): ToolSpec {
  return {
    name,
    description: 'x',
    inputSchema: { type: 'object' },
    source: { kind: 'mcp', server, tool: name, tokens, policy: 'ask' },
  };
}

describe('contextMeter', () => {
  test('carves the MCP tools out of the tools total, by server, largest first', () => {
    const meter = contextMeter({
      system: 'You are helpful.',
      messages: [{ role: 'user', content: 'hello there' }],
      tools: [builtin, mcp('a__x', 'a', 100), mcp('b__y', 'b', 300), mcp('a__z', 'a', 50)],
    });
    expect(meter.mcpTools).toBe(450);
    expect(meter.tools).toBe(450 + estimateToolTokens(builtin));
    expect(meter.mcpByServer).toEqual([
      { server: 'b', tokens: 300 },
      { server: 'a', tokens: 150 },
    ]);
    expect(meter.system).toBe(estimateTokens('You are helpful.'));
    expect(meter.conversation).toBe(estimateTokens('hello there'));
    expect(meter.total).toBe(meter.system + meter.conversation + meter.tools);
    expect(meter.budget).toBeNull();
  });

  test('counts tool calls and results in the conversation', () => {
    const empty = contextMeter({ system: '', messages: [], tools: [] });
    const withTools = contextMeter({
      system: '',
      messages: [
        { role: 'user', content: 'read it' },
        {
          role: 'assistant',
          content: [{ type: 'tool-call', id: 'c1', name: 'fs__read', arguments: { path: '/a' } }],
        },
        {
          role: 'tool',
          results: [
            {
              type: 'tool-result',
              callId: 'c1',
              name: 'fs__read',
              status: 'ok',
              content: 'lots of text here',
            },
          ],
        },
      ],
      tools: [],
    });
    expect(empty.total).toBe(0);
    expect(withTools.conversation).toBeGreaterThan(estimateTokens('read it lots of text here'));
  });

  test('counts attached and tool images by the provider in use, text-only models not at all', () => {
    const shot = {
      mimeType: 'image/png' as const,
      bytes: 70,
      data: 'AAAA',
      width: 1000,
      height: 1000,
    };
    const messages = [
      { role: 'user' as const, content: '', images: [shot] },
      {
        role: 'assistant' as const,
        content: [
          { type: 'tool-call' as const, id: 'c1', name: 'browser_screenshot', arguments: {} },
        ],
      },
      {
        role: 'tool' as const,
        results: [
          {
            type: 'tool-result' as const,
            callId: 'c1',
            name: 'browser_screenshot',
            status: 'ok' as const,
            content: '',
            images: [shot, { mimeType: 'image/png' as const, bytes: 70 }],
          },
        ],
      },
    ];
    const text = contextMeter({ system: '', messages, tools: [] }).conversation;
    const on = (images: 'anthropic' | 'openai') =>
      contextMeter({ system: '', messages, tools: [], images }).conversation - text;
    // Two kept 1000x1000 images; the third lost its pixels and is not sent.
    expect(on('anthropic')).toBe(2 * 1334);
    expect(on('openai')).toBe(2 * 765);
    // The images' share is reported on its own too (the meter's Images segment).
    expect(contextMeter({ system: '', messages, tools: [], images: 'openai' }).images).toBe(
      2 * 765,
    );
    expect(contextMeter({ system: '', messages, tools: [] }).images).toBe(0);
    // Left out of the latest request: neither its text nor its images count.
    expect(
      contextMeter({ system: '', messages, tools: [], images: 'openai', notSent: 3 }).images,
    ).toBe(0);
  });

  test('ties between servers are ordered by name, so the meter does not flicker', () => {
    const meter = contextMeter({
      system: '',
      messages: [],
      tools: [mcp('z__1', 'z', 10), mcp('a__1', 'a', 10)],
    });
    expect(meter.mcpByServer.map((s) => s.server)).toEqual(['a', 'z']);
  });
});
