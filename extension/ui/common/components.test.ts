import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import type { ConsentRequest } from '../../../protocol/servers';
import { ConnectionBanner } from './ConnectionBanner';
import { ConsentCard } from './ConsentCard';
import { RUNTIME_NOTICE_HIDDEN_KEY, RuntimeNotice, type NoticeMemory } from './RuntimeNotice';
import { ExternalLink } from './ExternalLink';
import { JsonView } from './JsonView';
import { UntrustedText } from './UntrustedText';

/** Server-side renders of the shared components: what reaches the DOM, without a browser. */

const noop = (): Promise<never> => new Promise(() => undefined);

describe('UntrustedText', () => {
  test('renders markup as text', () => {
    const html = renderToStaticMarkup(
      createElement(UntrustedText, {
        text: '<img src=x onerror=alert(1)> **bold** [a](https://x)',
      }),
    );
    expect(html).not.toMatch(/<img\b|<strong>|<a\b/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; **bold** [a](https://x)');
  });

  test('marks hidden characters and says how many', () => {
    const html = renderToStaticMarkup(createElement(UntrustedText, { text: 'a\u200Bb' }));
    expect(html).toContain('⟨ZWSP⟩');
    expect(html).toContain('Contains 1 invisible character');
  });

  test('collapses long text visibly', () => {
    const html = renderToStaticMarkup(
      createElement(UntrustedText, { text: 'z'.repeat(50), maxChars: 10 }),
    );
    expect(html).toContain('Showing 10 of 50 characters.');
    expect(html).toContain('Show all 50 characters');
  });
});

describe('JsonView', () => {
  test('collapses long listings with a control naming the full size', () => {
    const html = renderToStaticMarkup(
      createElement(JsonView, { value: { a: 'b'.repeat(100) }, maxChars: 20 }),
    );
    expect(html).toMatch(/Show all 1\d\d characters/);
  });

  test('escapes a string that contains markup', () => {
    const html = renderToStaticMarkup(createElement(JsonView, { value: { x: '<script>' } }));
    expect(html).not.toContain('<script>');
  });
});

test('ExternalLink shows a non-http(s) URL as text', () => {
  const html = renderToStaticMarkup(
    createElement(ExternalLink, { href: 'javascript:alert(1)' }, 'x'),
  );
  expect(html).not.toMatch(/<a\b/);
});

describe('ConnectionBanner', () => {
  test('not installed: what to run and Retry', () => {
    const html = renderToStaticMarkup(
      createElement(ConnectionBanner, {
        state: { state: 'not-installed', message: 'not found' },
        onRetry: noop,
      }),
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain('<code class="sy-selectable">switchyard install</code>');
    expect(html).toMatch(/<button[^>]*>Retry<\/button>/);
  });

  test('renders nothing when connected cleanly', () => {
    const html = renderToStaticMarkup(
      createElement(ConnectionBanner, {
        state: {
          state: 'connected',
          hostVersion: '1',
          home: '/h',
          configWarnings: [],
          runtime: null,
        },
      }),
    );
    expect(html).toBe('');
  });
});

describe('RuntimeNotice', () => {
  const state = (node: string, ended: boolean) =>
    ({
      state: 'connected',
      hostVersion: '1',
      home: '/h',
      configWarnings: [],
      runtime: { node, endOfLife: '2026-04-30', ended, suggested: 24 },
    }) as const;
  const memory = (stored: string | null): NoticeMemory => ({
    getItem: (key) => (key === RUNTIME_NOTICE_HIDDEN_KEY ? stored : null),
    setItem: () => undefined,
  });
  const render = (props: Parameters<typeof RuntimeNotice>[0]): string =>
    renderToStaticMarkup(createElement(RuntimeNotice, props));

  test('warns, with the command, and offers Hide where asked', () => {
    const html = render({ state: state('20.20.2', true), hideable: true, memory: memory(null) });
    expect(html).toContain('sy-notice--warning');
    expect(html).toContain('Node 20.20.2 stopped getting security fixes on 30 April 2026');
    expect(html).toContain('<code class="sy-selectable">switchyard install</code>');
    expect(html).toMatch(/<button[^>]*>Hide for Node 20.20.2<\/button>/);
    expect(render({ state: state('20.20.2', true), memory: memory(null) })).not.toContain(
      '<button',
    );
  });

  test('hidden for the version the user hid it for, shown again for another', () => {
    const hidden = memory('20.20.2');
    expect(render({ state: state('20.20.2', true), hideable: true, memory: hidden })).toBe('');
    expect(render({ state: state('20.21.0', true), hideable: true, memory: hidden })).toContain(
      'Node 20.21.0',
    );
    // The settings page does not offer Hide and ignores it.
    expect(render({ state: state('20.20.2', true), memory: hidden })).toContain('Node 20.20.2');
  });

  test('nothing for a maintained Node, or storage that throws', () => {
    expect(render({ state: state('26.10.0', false), hideable: true, memory: memory(null) })).toBe(
      '',
    );
    const throwing: NoticeMemory = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => undefined,
    };
    expect(render({ state: state('20.20.2', true), hideable: true, memory: throwing })).toContain(
      'Node 20.20.2',
    );
  });
});

describe('ConsentCard', () => {
  const consent: ConsentRequest = {
    server: 'repo-tools',
    reason: 'workspace',
    fingerprint: '0123456789abcdef'.repeat(4),
    executable: '/usr/bin/node',
    command: 'node',
    args: ['server.js', 'two words', ''],
    env: [['TOKEN', '${GITHUB_TOKEN}']],
    cwd: '/src/repo',
    provenance: 'workspace',
    workspaceRoot: '/src/repo',
    sourceFile: '/src/repo/.mcp.json',
    changes: [{ field: 'executable', before: '/usr/bin/node', after: '/src/repo/node' }],
    summary: 'command changed - needs approval',
    warnings: ['The program lives inside the workspace.'],
    ignoredTrustClaims: ['alwaysAllow'],
    remote: null,
  };
  const html = renderToStaticMarkup(
    createElement(ConsentCard, { consent, onDismiss: () => undefined, approve: noop }),
  );

  test('shows each argument in its own item, the empty one too', () => {
    expect(html).toContain('aria-label="3 arguments"');
    expect(html.match(/<li><code class="sy-code-box">/g)).toHaveLength(3);
    expect(html).toContain('(empty)');
  });

  test('shows env values unexpanded, the folder, the source and the fingerprint prefix', () => {
    expect(html).toContain('${GITHUB_TOKEN}');
    expect(html).toContain('/src/repo/.mcp.json');
    expect(html).toContain('01234567 89abcdef…');
  });

  test('shows what changed, the warnings and the ignored trust claims', () => {
    expect(html).toContain('/src/repo/node');
    expect(html).toContain('The program lives inside the workspace.');
    expect(html).toContain('alwaysAllow');
  });

  test('shows the tool prefix a workspace file asks for, and no row without one', () => {
    expect(html).not.toContain('Tool names');
    const withPrefix = renderToStaticMarkup(
      createElement(ConsentCard, {
        consent: {
          ...consent,
          toolPrefix: 'notes',
          changes: [{ field: 'toolPrefix', before: 'docs', after: 'notes' }],
        },
        approve: noop,
      }),
    );
    expect(withPrefix).toMatch(/<dt>Tool names<\/dt><dd><code><span [^>]*>notes<\/span><\/code>/);
    expect(withPrefix).toContain('Tool name prefix');
  });

  test('has Approve and Not now', () => {
    expect(html).toMatch(/<button[^>]*>Approve<\/button>/);
    expect(html).toMatch(/<button[^>]*>Not now<\/button>/);
  });

  test('says what Escape does where it does something (with Not now), and only there', () => {
    expect(html).toContain('Esc: not now');
    expect(html).toMatch(/<button[^>]*aria-keyshortcuts="Escape"[^>]*>Not now</);
    const withoutDismiss = renderToStaticMarkup(
      createElement(ConsentCard, { consent, approve: noop }),
    );
    expect(withoutDismiss).not.toContain('Esc');
  });
});
