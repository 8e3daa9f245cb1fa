import { describe, expect, it, test } from 'vitest';
import {
  DEFAULT_PROFILE_ID,
  ProfileSchema,
  builtinDefaultProfile,
  resolveProfile,
  type Profile,
} from './profiles';
import {
  matchPatternProblem,
  matchUrl,
  parseMatchPattern,
  profileLookupUrl,
} from './match-pattern';
import { globMatchSteps } from './glob-match';

// Banner: a pattern that matches a URL it should not is the dangerous direction: it hands a page
// the tools (and the policy overrides) of a profile meant for another site. A URL that should
// match but does not falls back to the default profile, which the user can see in the side panel.

const MATCHES: ReadonlyArray<readonly [pattern: string, url: string]> = [
  ['https://github.com/*', 'https://github.com/'],
  ['https://github.com/*', 'https://github.com/org/repo/issues?q=is%3Aopen#top'],
  ['https://github.com/*', 'https://GitHub.COM/org'],
  ['https://github.com/*', 'https://github.com:443/org'],
  ['https://github.com/*', 'https://github.com:8443/org'],
  ['https://github.com/*', 'https://github.com./org'],
  ['https://github.com/*', 'https://user:pass@github.com/org'],
  ['https://github.com/org/*', 'https://github.com/org/repo'],
  ['https://github.com/org/*', 'https://github.com/x/../org/repo'],
  ['https://github.com/org/repo', 'https://github.com/org/repo?tab=readme'],
  ['https://github.com/*/issues/*', 'https://github.com/org/repo/issues/12'],
  ['http://localhost:5173/*', 'http://localhost:5173/'],
  ['http://localhost:5173/*', 'http://localhost:5173/app/page?x=1'],
  ['http://localhost/*', 'http://localhost:3000/'],
  ['http://localhost:*/*', 'http://localhost:3000/'],
  ['http://localhost:80/*', 'http://localhost/'],
  ['https://localhost:443/*', 'https://localhost/'],
  ['*://*.example.com/*', 'https://example.com/'],
  ['*://*.example.com/*', 'http://a.example.com/'],
  ['*://*.example.com/*', 'https://a.b.example.com/x'],
  ['*://*/*', 'https://anything.test/'],
  ['*://*/*', 'http://10.0.0.1:8080/'],
  ['https://bücher.example/*', 'https://xn--bcher-kva.example/'],
  ['https://xn--bcher-kva.example/*', 'https://bücher.example/'],
  ['https://BÜCHER.example/*', 'https://bücher.example/'],
  ['https://*.bücher.example/*', 'https://shop.xn--bcher-kva.example/'],
  ['https://ＧＩＴＨＵＢ.com/*', 'https://github.com/'],
  ['http://127.0.0.1/*', 'http://0x7f.1/'],
  ['http://[::1]:8080/*', 'http://[::1]:8080/x'],
  ['http://[0:0::1]/*', 'http://[::1]/'],
  ['https://example.com/caf%C3%A9/*', 'https://example.com/café/menu'],
  ['https://example.com/café/*', 'https://example.com/caf%C3%A9/menu'],
  ['file:///home/alex/*', 'file:///home/alex/notes.html'],
  ['https://example.com/a*b*c', 'https://example.com/aXbYc'],
  ['https://example.com/*', 'https://example.com'],
  // A document the site made itself is the site's: a page cannot leave its profile that way.
  ['https://github.com/*', 'blob:https://github.com/5b1c9c0e-7a4f-4d3e-9f1a-2b3c4d5e6f70'],
  ['https://github.com/org/*', 'filesystem:https://github.com/org/temporary/page.html'],
];

const MISSES: ReadonlyArray<readonly [pattern: string, url: string, why: string]> = [
  ['https://github.com/*', 'https://github.com.evil.com/', 'a suffix of the host is another host'],
  ['https://github.com/*', 'https://evil.com/?https://github.com/', 'the query is not the host'],
  ['https://github.com/*', 'https://evil.com/#https://github.com/', 'the fragment is not the host'],
  ['https://github.com/*', 'https://evil.com/https://github.com/', 'the path is not the host'],
  ['https://github.com/*', 'https://github.com@evil.com/', 'userinfo is not the host'],
  ['https://github.com/*', 'https://github.com:pw@evil.com/', 'userinfo with a password'],
  ['https://github.com/*', 'https://evil.com\\@github.com/', 'a backslash is a slash'],
  ['https://github.com/*', 'https://github.com../', 'two trailing dots are another name'],
  ['https://github.com/*', 'https://evilgithub.com/', 'a longer label'],
  ['https://github.com/*', 'https://gist.github.com/', 'an exact host has no subdomains'],
  ['https://github.com/*', 'http://github.com/', 'the scheme is named'],
  ['https://github.com/*', 'wss://github.com/', 'websockets are not https'],
  ['https://github.com/*', 'https://xn--github-xyz.com/', 'a look-alike in punycode'],
  ['https://github.com/*', 'https://gıthub.com/', 'a dotless i is another host'],
  ['https://github.com/*', 'not a url', 'not a URL'],
  ['https://github.com/*', '', 'empty'],
  ['https://github.com/*', 'github.com/org', 'no scheme'],
  ['https://github.com/org/*', 'https://github.com/organisation', 'the path boundary'],
  ['https://github.com/org/*', 'https://github.com/ORG/repo', 'paths are case-sensitive'],
  ['https://github.com/org/*', 'https://github.com/other/%2e%2e/x', 'dot segments are resolved'],
  ['https://github.com/org/repo', 'https://github.com/org/repo/x', 'no wildcard, exact path'],
  ['*://*/*', 'file:///etc/passwd', 'the * scheme is http and https only'],
  ['*://*/*', 'chrome-extension://abcdefghijklmnop/sidepanel.html', 'extension pages'],
  ['*://*/*', 'chrome://settings/', 'browser pages'],
  ['*://*/*', 'about:blank', 'about:'],
  ['*://*/*', 'data:text/html,<h1>hi</h1>', 'data:'],
  ['*://*/*', 'javascript:alert(1)', 'javascript:'],
  ['*://*/*', 'ftp://example.com/', 'ftp'],
  ['*://*.example.com/*', 'https://example.com.evil.com/', 'a subdomain wildcard is a suffix'],
  ['*://*.example.com/*', 'https://badexample.com/', 'a suffix must start at a dot'],
  ['*://*.example.com/*', 'https://example.co/', 'another domain'],
  ['http://localhost:5173/*', 'http://localhost:5174/', 'another port'],
  ['http://localhost:5173/*', 'http://localhost/', 'the default port is 80'],
  ['http://localhost:5173/*', 'https://localhost:5173/', 'the scheme is named'],
  ['https://localhost:443/*', 'http://localhost/', 'http: default port is 80'],
  ['http://127.0.0.1/*', 'http://127.0.0.2/', 'another address'],
  ['http://127.0.0.1/*', 'http://localhost/', 'a name is not an address'],
  ['file:///home/alex/*', 'file:///home/alexander/x', 'the path boundary'],
  ['file:///home/alex/*', 'file://server/home/alex/x', 'a file URL with a host is another machine'],
  ['file:///home/alex/*', 'https://home/alex/x', 'a file pattern is file only'],
  ['https://example.com/a*b*c', 'https://example.com/aXbYcZ', 'the last piece anchors the end'],
  ['https://bücher.example/*', 'https://bucher.example/', 'no accent folding'],
  ['not a pattern', 'https://example.com/', 'a malformed pattern matches nothing'],
  ['https://*.127.0.0.1/*', 'https://127.0.0.1/', 'rejected pattern'],
  ['https://github.com/*', 'blob:https://evil.com/x?https://github.com/', 'a blob is its maker'],
  ['https://github.com/*', 'blob:null/5b1c9c0e', 'an opaque blob has no site'],
  ['https://github.com/*', 'blob:blob:https://github.com/x', 'no browser makes a blob of a blob'],
];

describe('matchUrl', () => {
  test.each(MATCHES)('%s matches %s', (pattern, url) => {
    expect(matchPatternProblem(pattern)).toBeUndefined();
    expect(matchUrl(pattern, url)).toBe(true);
  });

  test.each(MISSES)('%s does not match %s (%s)', (pattern, url) => {
    expect(matchUrl(pattern, url)).toBe(false);
  });

  // Work is counted, not timed: a step is a position a piece is tried at or a character compared,
  // so the bound holds on any machine. A backtracking matcher needs exponentially many steps here.
  it('finds a path glob in linear time, whatever the pattern', () => {
    const pattern = `https://example.com/${'*a'.repeat(200)}b`;
    expect(matchUrl(pattern, `https://example.com/${'a'.repeat(1_500)}`)).toBe(false);
    const path = `/${'a'.repeat(1_500)}`;
    for (const glob of [
      `/${'*a'.repeat(200)}b`,
      `/${'*a'.repeat(200)}*b*`,
      `/${'*a*'.repeat(700)}`,
    ]) {
      const { matches, steps } = globMatchSteps(glob, path);
      expect(matches, glob.slice(0, 12)).toBe(glob.endsWith('*a*'));
      expect(steps, glob.slice(0, 12)).toBeLessThanOrEqual(2 * (glob.length + path.length));
    }
  });

  it('never takes more than (|glob| + 1) x (|path| + 1) steps on a path glob', () => {
    const over: string[] = [];
    for (const glob of ['/', '/*', '/a*b', '/*ab*ab*', '/**a**', '/a*a*a*a*b']) {
      for (const path of ['/', '/ab', '/aab', '/abab', '/aaaaaaaaab', '/ba']) {
        const { matches, steps } = globMatchSteps(glob, path);
        if (matches !== matchUrl(`https://x.example${glob}`, `https://x.example${path}`)) {
          over.push(`${glob} ${path}: disagrees with matchUrl`);
        }
        if (steps > (glob.length + 1) * (path.length + 1)) over.push(`${glob} ${path}: ${steps}`);
      }
    }
    expect(over).toEqual([]);
  });
});

const INVALID_PATTERNS: ReadonlyArray<readonly [pattern: string, problem: RegExp]> = [
  ['github.com/*', /not a match pattern/],
  ['https://github.com', /no path/],
  ['ftp://example.com/*', /not a match pattern/],
  ['chrome-extension://abc/*', /not a match pattern/],
  ['<all_urls>', /not a match pattern/],
  ['https:///*', /host is missing/],
  ['https://git*.com/*', /"\*" elsewhere is not a wildcard/],
  ['https://*github.com/*', /"\*" elsewhere is not a wildcard/],
  ['https://github.*/*', /"\*" elsewhere is not a wildcard/],
  ['https://*.*.com/*', /"\*" elsewhere is not a wildcard/],
  ['https://user@github.com/*', /not a host name/],
  ['https://github.com:0/*', /port/],
  ['https://github.com:65536/*', /port/],
  ['https://github.com:http/*', /port/],
  ['https://github.com:/*', /port/],
  ['https://github.com/a?b', /cannot contain/],
  ['https://github.com/a#b', /cannot contain/],
  ['https://github.com/a\\b', /cannot contain/],
  ['https://gith ub.com/*', /not a host name/],
  ['https://github.com../*', /not a host name/],
  ['https://*.10.0.0.1/*', /IP address/],
  ['https://*.[::1]/*', /IP address|not a host name/],
  ['file://server/share/*', /no host/],
  ['HTTPS://github.com/*', /not a match pattern/],
  [`https://example.com/${'x'.repeat(2_100)}`, /at most/],
];

describe('profileLookupUrl', () => {
  test.each([
    ['https://user:pw@github.com/org/repo?tab=readme#top', 'https://github.com/org/repo'],
    [`https://evil.example/a?${'q'.repeat(9_000)}`, 'https://evil.example/a'],
    ['blob:https://evil.example/5b1c?x#y', 'blob:https://evil.example/5b1c'],
    [
      'filesystem:https://evil.example/temporary/a.html',
      'filesystem:https://evil.example/temporary/a.html',
    ],
    ['blob:null/5b1c', 'blob:'],
    ['blob:blob:https://evil.example/x', 'blob:blob:'],
    ['file:///home/alex/notes.html?x', 'file:///home/alex/notes.html'],
    ['http://localhost:5173/app?x=1', 'http://localhost:5173/app'],
    [`data:text/html,${'<p>'.repeat(5_000)}`, 'data:'],
    ['about:blank', 'about:'],
    ['chrome://settings/', 'chrome:'],
    ['not a url', ''],
  ])('%s -> %s', (url, lookup) => {
    expect(profileLookupUrl(url)).toBe(lookup);
  });

  // What the extension sends must select what the whole URL would: every pattern in this file
  // against every URL in it, whole and as looked up.
  it('matches exactly what the whole URL matches', () => {
    const urls = [...MATCHES, ...MISSES].map(([, url]) => url);
    const patterns = [...MATCHES, ...MISSES].map(([pattern]) => pattern);
    const differ: string[] = [];
    for (const pattern of patterns) {
      for (const url of urls) {
        if (matchUrl(pattern, url) !== matchUrl(pattern, profileLookupUrl(url))) {
          differ.push(`${pattern} ${url}`);
        }
      }
    }
    expect(differ).toEqual([]);
  });
});

describe('parseMatchPattern', () => {
  test.each(INVALID_PATTERNS)('refuses %s', (pattern, problem) => {
    const parsed = parseMatchPattern(pattern);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem).toMatch(problem);
  });

  it('spells hosts as the URL API does', () => {
    const parsed = parseMatchPattern('https://BÜCHER.example.:8443/café/*');
    expect(parsed).toMatchObject({
      ok: true,
      pattern: {
        schemes: ['https:'],
        host: { kind: 'exact', name: 'xn--bcher-kva.example' },
        port: 8443,
        path: '/caf%C3%A9/*',
      },
    });
  });
});

const profile = (id: string, match: string[], extra: Partial<Profile> = {}): Profile => ({
  id,
  name: id,
  match,
  mode: 'standard',
  ...extra,
});

describe('resolveProfile', () => {
  const profiles: Profile[] = [
    profile('any-web', ['*://*/*']),
    profile('example-any', ['*://*.example.com/*']),
    profile('example-shop', ['*://*.shop.example.com/*']),
    profile('example-exact', ['https://example.com/*']),
    profile('example-docs', ['https://example.com/docs/*']),
    profile('example-docs-api', ['https://example.com/docs/api']),
    profile('local', ['http://localhost/*']),
    profile('local-vite', ['http://localhost:5173/*']),
    profile('local-admin', ['http://localhost/admin/*']),
    profile('scheme-any', ['*://plain.test/*']),
    profile('scheme-https', ['https://plain.test/*']),
    profile('tie-first', ['https://tie.test/*']),
    profile('tie-second', ['https://tie.test/*']),
    profile('two-patterns', ['https://two.test/*', 'https://two.test/a/*']),
  ];

  const CASES: ReadonlyArray<readonly [url: string, id: string, pattern: string | null]> = [
    ['https://example.com/docs/api', 'example-docs-api', 'https://example.com/docs/api'],
    ['https://example.com/docs/api/v2', 'example-docs', 'https://example.com/docs/*'],
    ['https://example.com/docs/', 'example-docs', 'https://example.com/docs/*'],
    ['https://example.com/blog', 'example-exact', 'https://example.com/*'],
    ['http://example.com/blog', 'example-any', '*://*.example.com/*'],
    ['https://www.example.com/', 'example-any', '*://*.example.com/*'],
    ['https://a.shop.example.com/', 'example-shop', '*://*.shop.example.com/*'],
    ['https://other.test/', 'any-web', '*://*/*'],
    ['http://localhost:5173/admin/x', 'local-vite', 'http://localhost:5173/*'],
    ['http://localhost/admin/x', 'local-admin', 'http://localhost/admin/*'],
    ['http://localhost:3000/', 'local', 'http://localhost/*'],
    ['https://plain.test/', 'scheme-https', 'https://plain.test/*'],
    ['http://plain.test/', 'scheme-any', '*://plain.test/*'],
    ['https://tie.test/', 'tie-first', 'https://tie.test/*'],
    ['https://two.test/a/b', 'two-patterns', 'https://two.test/a/*'],
    ['chrome://newtab/', DEFAULT_PROFILE_ID, null],
    ['file:///tmp/x.html', DEFAULT_PROFILE_ID, null],
    ['blob:https://example.com/docs/1f2e', 'example-docs', 'https://example.com/docs/*'],
    ['blob:null/1f2e', DEFAULT_PROFILE_ID, null],
    ['garbage', DEFAULT_PROFILE_ID, null],
  ];

  test.each(CASES)('%s resolves to %s', (url, id, pattern) => {
    const resolved = resolveProfile(profiles, url);
    expect(resolved.profile.id).toBe(id);
    expect(resolved.matchedPattern).toBe(pattern);
  });

  it('breaks ties by list order, whichever way round the list is', () => {
    const reversed = [...profiles].reverse();
    expect(resolveProfile(reversed, 'https://tie.test/').profile.id).toBe('tie-second');
  });

  it('uses the built-in default when the user wrote none, and theirs when they did', () => {
    expect(resolveProfile([], 'https://x.test/').profile).toEqual(builtinDefaultProfile());
    const strict = profile(DEFAULT_PROFILE_ID, [], { mode: 'read-only' });
    expect(resolveProfile([strict], 'https://x.test/').profile).toBe(strict);
  });

  it('never selects the default entry by a pattern', () => {
    // The schema refuses this; a list that got past it still must not use the patterns.
    const odd = profile(DEFAULT_PROFILE_ID, ['https://x.test/*'], { mode: 'full' });
    expect(resolveProfile([odd], 'https://x.test/')).toEqual({
      profile: odd,
      matchedPattern: null,
    });
  });

  it('skips a pattern that does not parse and still matches the profile by another', () => {
    const mixed = profile('mixed', ['nonsense', 'https://mixed.test/*']);
    expect(resolveProfile([mixed], 'https://mixed.test/').matchedPattern).toBe(
      'https://mixed.test/*',
    );
  });
});

describe('ProfileSchema', () => {
  const valid: Profile = {
    id: 'webshop-dev',
    name: 'Webshop (dev server)',
    match: ['http://localhost:5173/*'],
    servers: ['shop-db', 'everything'],
    include: ['shop-db__*', 'everything__echo'],
    exclude: ['shop-db__delete_*'],
    mode: 'standard',
    policy: { 'shop-db__query_*': 'allow', 'everything__*': 'ask' },
    workspace: '/home/alex/src/webshop',
    tokenBudget: 4_000,
  };

  it('accepts a full profile unchanged', () => {
    expect(ProfileSchema.parse(valid)).toEqual(valid);
  });

  it('accepts the smallest profile', () => {
    const smallest = { id: 'x', name: 'X', match: [], mode: 'full' };
    expect(ProfileSchema.parse(smallest)).toEqual(smallest);
  });

  const REJECTED: ReadonlyArray<readonly [label: string, value: unknown]> = [
    ['an upper-case id', { ...valid, id: 'Webshop' }],
    ['an id with a slash', { ...valid, id: 'web/shop' }],
    ['an id ending in a dash', { ...valid, id: 'web-' }],
    ['a 65-character id', { ...valid, id: 'a'.repeat(65) }],
    ['an empty name', { ...valid, name: '' }],
    ['a name with a bidi override', { ...valid, name: 'shop\u202e' }],
    ['a name with a zero-width space', { ...valid, name: 'git\u200bhub' }],
    ['no mode', { ...valid, mode: undefined }],
    ['an unknown mode', { ...valid, mode: 'yolo' }],
    ['a misspelt key', { ...valid, exlude: ['shop-db__*'] }],
    ['a bad pattern', { ...valid, match: ['localhost:5173'] }],
    ['patterns that are not a list', { ...valid, match: 'https://x.test/*' }],
    ['a tool glob with a dot', { ...valid, exclude: ['shop.db__*'] }],
    ['a policy value that is not a policy', { ...valid, policy: { 'shop-db__*': 'always' } }],
    [
      'a __proto__ policy key',
      { ...valid, policy: JSON.parse('{"__proto__": "deny"}') as unknown },
    ],
    ['a relative workspace', { ...valid, workspace: 'src/webshop' }],
    ['a workspace with NUL', { ...valid, workspace: '/home/alex\u0000/x' }],
    ['a zero budget', { ...valid, tokenBudget: 0 }],
    ['a fractional budget', { ...valid, tokenBudget: 10.5 }],
    ['a budget over ten million', { ...valid, tokenBudget: 10_000_001 }],
    ['a default profile with patterns', { ...valid, id: 'default' }],
    [
      '65 patterns',
      { ...valid, match: Array.from({ length: 65 }, (_, i) => `https://h${i}.test/*`) },
    ],
  ];

  test.each(REJECTED)('rejects %s', (_label, value) => {
    expect(ProfileSchema.safeParse(value).success).toBe(false);
  });

  it.each(['C:\\src\\shop', 'C:/src/shop', '\\\\server\\share\\shop', '/'])(
    'accepts the absolute workspace %s',
    (workspace) => {
      expect(ProfileSchema.safeParse({ ...valid, workspace }).success).toBe(true);
    },
  );
});
