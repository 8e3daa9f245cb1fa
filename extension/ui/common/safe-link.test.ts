import { describe, expect, test } from 'vitest';
import { markdownUrlTransform, safeLink, showsHost } from './safe-link';

/**
 * Dangerous direction: a URL that is not http(s) becoming a clickable link (script execution in
 * the extension's origin, local files, browser-internal pages). A real link shown as text is only
 * an inconvenience.
 */

describe('safeLink refuses', () => {
  test.each([
    ['javascript:', 'javascript:alert(1)'],
    ['javascript: upper case', 'JAVASCRIPT:alert(1)'],
    ['javascript: mixed case', 'JaVaScRiPt:alert(1)'],
    ['javascript: leading space', '  javascript:alert(1)'],
    ['javascript: leading control char', '\u0001javascript:alert(1)'],
    ['javascript: tab inside the scheme', 'java\tscript:alert(1)'],
    ['javascript: newline inside the scheme', 'java\nscript:alert(1)'],
    ['javascript: entity-looking text', 'javascript&colon;alert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['data: base64', 'DATA:text/html;base64,PHNjcmlwdD4='],
    ['vbscript:', 'vbscript:msgbox(1)'],
    ['file:', 'file:///etc/passwd'],
    ['chrome:', 'chrome://settings'],
    ['chrome-extension:', 'chrome-extension://abc/options.html'],
    ['moz-extension:', 'moz-extension://abc/popup.html'],
    ['about:', 'about:blank'],
    ['blob:', 'blob:https://example.com/uuid'],
    ['mailto:', 'mailto:a@example.com'],
    ['ftp:', 'ftp://example.com/file'],
    ['relative path', '/options.html'],
    ['relative file', 'options.html'],
    ['dot relative', '../popup.html'],
    ['fragment only', '#top'],
    ['query only', '?q=1'],
    ['protocol-relative', '//evil.example/x'],
    ['backslash protocol-relative', '\\\\evil.example\\x'],
    ['credentials', 'https://bank.example@evil.example/'],
    ['user and password', 'https://user:pass@example.com/'],
    ['empty', ''],
    ['scheme only', 'https:'],
    ['too long', `https://example.com/${'a'.repeat(5000)}`],
  ])('%s', (_name, raw) => {
    expect(safeLink(raw)).toBeNull();
  });
});

describe('safeLink accepts http(s) and normalizes', () => {
  test.each([
    ['https', 'https://example.com/a?b=c#d', 'https://example.com/a?b=c#d', 'example.com'],
    ['http', 'http://example.com', 'http://example.com/', 'example.com'],
    [
      'upper-case scheme and host',
      'HTTPS://EXAMPLE.COM/Path',
      'https://example.com/Path',
      'example.com',
    ],
    ['surrounding whitespace', '  https://example.com/  ', 'https://example.com/', 'example.com'],
    ['port', 'http://localhost:8080/x', 'http://localhost:8080/x', 'localhost:8080'],
    [
      'IDN look-alike shown in punycode',
      'https://exаmple.com/',
      'https://xn--exmple-4nf.com/',
      'xn--exmple-4nf.com',
    ],
    ['IDN', 'https://bücher.example/', 'https://xn--bcher-kva.example/', 'xn--bcher-kva.example'],
  ])('%s', (_name, raw, href, host) => {
    expect(safeLink(raw)).toEqual({ href, host });
  });
});

describe('showsHost', () => {
  const link = { href: 'https://example.com/', host: 'example.com' };
  test.each([
    ['text differs from the URL', 'my bank', true],
    ['text is another URL', 'https://bank.example/', true],
    ['text is the URL', 'https://example.com/', false],
    ['text is the URL without the final slash', 'https://example.com', false],
    ['children are not plain text', null, true],
  ])('%s', (_name, text, expected) => {
    expect(showsHost(text, link)).toBe(expected);
  });

  test('a Unicode look-alike autolink shows its punycode host', () => {
    const idn = safeLink('https://exаmple.com/');
    expect(idn).not.toBeNull();
    if (idn !== null) expect(showsHost('https://exаmple.com/', idn)).toBe(true);
  });
});

describe('markdownUrlTransform', () => {
  test('keeps safe hrefs', () => {
    expect(markdownUrlTransform('https://example.com', 'href')).toBe('https://example.com/');
  });
  test('drops unsafe hrefs', () => {
    expect(markdownUrlTransform('javascript:alert(1)', 'href')).toBeNull();
  });
  test('drops every image source, even https (nothing loads from the network)', () => {
    expect(markdownUrlTransform('https://tracker.example/pixel.png', 'src')).toBeNull();
  });
});

describe('links an MCP App asks to open (ui/open-link)', () => {
  test.each([
    ['https://example.com/a?b=1', 'https://example.com/a?b=1'],
    ['http://localhost:3000/', 'http://localhost:3000/'],
    ['javascript:alert(1)', undefined],
    ['chrome-extension://abc/options.html', undefined],
    ['file:///etc/passwd', undefined],
    ['https://user:pass@example.com/', undefined],
    ['not a url', undefined],
  ])('%j -> %s', (value, expected) => {
    expect(safeLink(value)?.href).toBe(expected);
  });
});
