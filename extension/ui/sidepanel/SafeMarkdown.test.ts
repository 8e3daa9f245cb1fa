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
});
