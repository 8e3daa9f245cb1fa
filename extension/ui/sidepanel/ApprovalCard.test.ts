import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { ANSWER_DELAY_MS, ApprovalCard } from './ApprovalCard';
import { mcpApproval } from './test-fixtures';
import type { PendingApproval } from '../../messaging/approvals';

/** The e2e journeys click these buttons by role and exact name. */

const resolve = (): Promise<void> => Promise.resolve();

/** The card as the side panel first renders it. */
const renderCard = (pending: PendingApproval): string =>
  renderToStaticMarkup(
    createElement(ApprovalCard, { pending, messages: [], onResolve: resolve, now: 0 }),
  );

const buttonsOf = (html: string): (string | undefined)[] =>
  [...html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((m) => m[1]);

test('an MCP approval card has exactly the three answers, by name, Allow once first', () => {
  const html = renderCard(mcpApproval({ annotations: { readOnlyHint: true } }));
  expect(buttonsOf(html)).toEqual(['Allow once', 'Always allow this tool', 'Deny']);
  expect(html).toContain('fs__write_file');
  expect(html).toContain('/tmp/a.txt');
  expect(html).toMatch(/<button[^>]*sy-button--primary[^>]*>Allow once</);
});

test("a destructive tool's card puts Deny first, as the primary button", () => {
  const html = renderCard(mcpApproval({ annotations: { destructiveHint: true } }));
  expect(buttonsOf(html)).toEqual(['Deny', 'Allow once', 'Always allow this tool']);
  expect(html).toMatch(/<button[^>]*sy-button--primary[^>]*>Deny</);
  expect(html).toMatch(/destructive/);
});

test('the card says that Escape denies, and its heading is where focus lands', () => {
  const html = renderToStaticMarkup(
    createElement(ApprovalCard, { pending: mcpApproval(), messages: [], onResolve: resolve }),
  );
  expect(html).toContain('Esc denies');
  expect(html).toMatch(/<button[^>]*aria-keyshortcuts="Escape"[^>]*>Deny</);
  expect(html).toMatch(/<h3[^>]*tabindex="-1"[^>]*data-card-focus=""/);
  expect(html).toContain('data-card-id="a1"');
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

test('a new card holds its answers for a moment: a click meant for the card before misses', () => {
  const html = renderCard(mcpApproval({ annotations: { readOnlyHint: true } }));
  // Held, not disabled: they stay in the Tab order, and Escape still denies at once.
  const buttons = [...html.matchAll(/<button[^>]*>/g)].map((m) => m[0]);
  expect(buttons).toHaveLength(3);
  for (const button of buttons) {
    expect(button).toContain('aria-disabled="true"');
    expect(button).not.toMatch(/\sdisabled=""/);
  }
  expect(ANSWER_DELAY_MS).toBeGreaterThanOrEqual(300);
});
