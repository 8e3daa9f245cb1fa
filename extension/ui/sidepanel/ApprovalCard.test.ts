import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { ApprovalCard } from './ApprovalCard';
import { mcpApproval } from './test-fixtures';

/** The e2e journeys click these buttons by role and exact name. */

const resolve = (): Promise<void> => Promise.resolve();

test('an MCP approval card has exactly the three answers, by name', () => {
  const html = renderToStaticMarkup(
    createElement(ApprovalCard, {
      pending: mcpApproval({ annotations: { destructiveHint: true } }),
      messages: [],
      onResolve: resolve,
      now: 0,
    }),
  );
  const buttons = [...html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((m) => m[1]);
  expect(buttons).toEqual(['Allow once', 'Always allow this tool', 'Deny']);
  expect(html).toContain('fs__write_file');
  expect(html).toContain('write_file');
  expect(html).toContain('/tmp/a.txt');
  expect(html).toMatch(/destructive/);
});

test('a built-in approval card names the tool and has the same answers', () => {
  const html = renderToStaticMarkup(
    createElement(ApprovalCard, {
      pending: {
        approvalId: 'a',
        runId: 'r',
        callId: 'c',
        prompt: { kind: 'builtin', tool: 'browser_list_tabs', arguments: {} },
      },
      messages: [],
      onResolve: resolve,
    }),
  );
  expect(html).toContain('browser_list_tabs');
  expect(html).toContain('Allow once');
  expect(html).toContain('Always allow this tool');
  expect(html).toContain('Deny');
});
