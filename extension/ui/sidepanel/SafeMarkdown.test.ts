import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { SafeMarkdown } from './SafeMarkdown';

/**
 * The model's markdown is the one place the panel renders markup, and a model can be steered by
 * a page or a server to write anything. Dangerous direction: any element that runs, loads or
 * navigates (script, iframe, img, a non-http link) reaching the DOM.
 */

function render(text: string): string {
  return renderToStaticMarkup(createElement(SafeMarkdown, { text }));
}

describe('SafeMarkdown', () => {
  test('renders ordinary markdown', () => {
    const html = render('Some **bold** and `code`.\n\n- a\n- b');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('<li>a</li>');
  });

  test.each([
    ['script', '<script>alert(1)</script>'],
    ['iframe', '<iframe src="https://evil.example"></iframe>'],
    ['img with onerror', '<img src=x onerror="alert(1)">'],
    ['inline anchor', 'click <a href="javascript:alert(1)">here</a>'],
    ['style', '<style>body{display:none}</style>'],
  ])('drops raw HTML: %s', (_name, text) => {
    const html = render(text);
    expect(html).not.toMatch(/<(script|iframe|img|style)\b/i);
    expect(html).not.toContain('javascript:');
    expect(html).not.toMatch(/<a\b/);
  });

  test.each([
    ['javascript:', '[x](javascript:alert(1))'],
    ['encoded javascript:', '[x](javascript&#58;alert(1))'],
    ['data:', '[x](data:text/html,hi)'],
    ['vbscript:', '[x](vbscript:msgbox)'],
    ['file:', '[x](file:///etc/passwd)'],
    ['relative', '[x](/options.html)'],
    ['protocol-relative', '[x](//evil.example)'],
    ['reference link', '[x][r]\n\n[r]: javascript:alert(1)'],
    ['autolink', '<javascript:alert(1)>'],
  ])('shows unsafe links as text: %s', (_name, text) => {
    const html = render(text);
    expect(html).not.toMatch(/<a\b/);
    expect(html).not.toMatch(/href=/);
  });

  test('keeps http(s) links, opening in a new tab, with the real host shown', () => {
    const html = render('[your bank](https://evil.example/login)');
    expect(html).toContain('href="https://evil.example/login"');
    expect(html).toContain('target="_blank"');
    expect(html).toContain('rel="noopener noreferrer"');
    expect(html).toContain('(evil.example)');
  });

  test('never loads images: shows their alt text', () => {
    const html = render('![tracking pixel](https://tracker.example/p.png)');
    expect(html).not.toMatch(/<img\b/);
    expect(html).not.toContain('tracker.example');
    expect(html).toContain('[image: tracking pixel]');
  });

  test.each([
    ['a cell', '| a |\n|---|\n| <img src=x onerror="alert(1)"> |'],
    ['a header', '| <script>alert(1)</script> |\n|---|\n| x |'],
    ['an inline element in a cell', '| a |\n|---|\n| x <iframe src="https://evil.example"> y |'],
    ['a link in a cell', '| a |\n|---|\n| <a href="javascript:alert(1)">x</a> |'],
  ])('HTML in a table is still not parsed: %s', (_name, text) => {
    const html = render(text);
    expect(html).toContain('<table>');
    expect(html).not.toMatch(/<(script|iframe|img|style)\b/i);
    expect(html).not.toMatch(/<a\b/);
    expect(html).not.toContain('javascript:');
  });

  test('shows failures of hostile links in a table cell as text', () => {
    const html = render('| a |\n|---|\n| [x](javascript:alert(1)) |');
    expect(html).not.toMatch(/<a\b/);
    expect(html).toContain('<span class="sy-link-removed">x</span>');
  });
});

describe('SafeMarkdown: GitHub-flavoured markdown', () => {
  test('renders a table, aligned, inside a region that scrolls sideways', () => {
    const html = render('| Name | Size |\n|:--|--:|\n| a.txt | 12 |\n| **b** | 3 |');
    expect(html).toMatch(
      /^<div class="sy-markdown"><div class="sy-md-table" role="group" aria-label="Table" tabindex="0"><table>/,
    );
    expect(html).toContain('<th style="text-align:left">Name</th>');
    expect(html).toContain('<td style="text-align:right">12</td>');
    expect(html).toContain('<td style="text-align:left"><strong>b</strong></td>');
  });

  test('renders strikethrough', () => {
    expect(render('~~gone~~ kept')).toContain('<del>gone</del> kept');
  });

  test('renders task lists as disabled, labelled checkboxes, and no other input', () => {
    const html = render('- [x] done\n- [ ] to do');
    expect(html).toContain(
      '<input type="checkbox" disabled="" aria-label="Done" checked=""/> done</li>',
    );
    expect(html).toContain('<input type="checkbox" disabled="" aria-label="Not done"/> to do</li>');
    expect(html.match(/<input\b/g)).toHaveLength(2);
  });

  test('links a bare http(s) URL or www. address, and nothing else', () => {
    const html = render(
      'See https://docs.example/a, www.example.org, me@mail.example and javascript:alert(1).',
    );
    expect(html).toContain('href="https://docs.example/a"');
    expect(html).toContain('href="http://www.example.org/"');
    expect(html.match(/<a\b/g)).toHaveLength(2);
    expect(html).not.toContain('mailto:');
    expect(html).toContain('<span class="sy-link-removed">me@mail.example</span>');
  });

  test('a footnote stays text: its in-page links are no http(s) links', () => {
    const html = render('Claim[^1].\n\n[^1]: The source.');
    expect(html).not.toMatch(/<a\b/);
    expect(html).not.toContain('href=');
    expect(html).toContain('The source.');
  });
});

describe('SafeMarkdown: code blocks', () => {
  test('a fenced block has its language as a label and a Copy code button', () => {
    const html = render('```python\nprint("hi")\n```');
    expect(html).toContain('<span class="sy-code__language">python</span>');
    expect(html).toMatch(/<button[^>]*aria-label="Copy code"[^>]*>Copy<\/button>/);
    expect(html).toContain('<pre tabindex="0"><code>print(&quot;hi&quot;)\n</code></pre>');
  });

  test('a block without a language, fenced or indented, has the button and no label', () => {
    for (const text of ['```\nplain\n```', '    indented']) {
      const html = render(text);
      expect(html).not.toContain('sy-code__language');
      expect(html).toContain('aria-label="Copy code"');
    }
  });

  test('inline code is no block: no label, no button', () => {
    const html = render('Run `ls -la` here.');
    expect(html).toContain('<code>ls -la</code>');
    expect(html).not.toContain('<button');
  });

  test.each([
    ['markup', '```<script>alert(1)</script>\nx\n```'],
    ['an escaped tag', '```&lt;img src=x onerror=alert(1)&gt;\nx\n```'],
    ['an attribute breakout', '```x"onmouseover="alert(1)\nx\n```'],
    ['a bell', '```py\u0007\nx\n```'],
    ['an ANSI escape', '```\u001b[31mred\nx\n```'],
    ['a NUL', '```js\u0000\nx\n```'],
    ['a bidi override', '```\u202Etxt.exe\nx\n```'],
    ['a zero-width space', '```js\u200b\nx\n```'],
  ])('a hostile fence language gets no label and no class: %s', (_name, text) => {
    const html = render(text);
    expect(html).not.toContain('sy-code__language');
    expect(html).not.toContain('language-');
    expect(html).not.toMatch(/<(script|img)\b/i);
    for (const hidden of ['\u0000', '\u0007', '\u001b', '\u200b', '\u202e']) {
      expect(html).not.toContain(hidden);
    }
    expect(html).not.toMatch(/\sonmouseover=/);
    expect(html).toContain('<code>x\n</code>');
  });

  test('a very long fence language is cut to a short label', () => {
    const html = render(`\`\`\`${'x'.repeat(5000)}\nbody\n\`\`\``);
    expect(html).toContain(`<span class="sy-code__language">${'x'.repeat(19)}…</span>`);
    expect(html).not.toContain('x'.repeat(20));
  });
});
