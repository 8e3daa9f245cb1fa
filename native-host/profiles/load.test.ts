import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, test } from 'vitest';
import { ProfileSchema, resolveProfile, type Profile } from '../../protocol/profiles';
import { loadConfigFile } from '../config/load';
import { loadProfiles, parseProfiles } from './load';

// Banner: a profile that cannot be read must not hand its sites to a profile that shows more.
// Dropping a broken read-only profile would give its site the default's tools, so a broken
// profile with a readable id stays, showing nothing. An extra "no tools" is the safe mistake.

const FILE = '/home/alex/.config/switchyard/config.json';
const github: Profile = {
  id: 'github',
  name: 'GitHub',
  match: ['https://github.com/*'],
  mode: 'read-only',
};

describe('parseProfiles', () => {
  it('reads nothing when there is no profiles key', () => {
    expect(parseProfiles(undefined, FILE)).toEqual({ profiles: [], warnings: [] });
  });

  it('keeps valid profiles in file order', () => {
    const shop = { id: 'shop', name: 'Shop', match: ['http://localhost:5173/*'], mode: 'full' };
    const { profiles, warnings } = parseProfiles([github, shop], FILE);
    expect(profiles.map((p) => p.id)).toEqual(['github', 'shop']);
    expect(warnings).toEqual([]);
  });

  const BROKEN: ReadonlyArray<
    readonly [label: string, entry: Record<string, unknown>, key: string]
  > = [
    ['a misspelt key', { ...github, exlude: ['github__*'] }, 'profiles[0]'],
    ['an unknown mode', { ...github, mode: 'careful' }, 'profiles[0].mode'],
    ['a bad tool glob', { ...github, exclude: ['github.*'] }, 'profiles[0].exclude[0]'],
    ['a relative workspace', { ...github, workspace: 'src/shop' }, 'profiles[0].workspace'],
    ['a budget as a string', { ...github, tokenBudget: '4000' }, 'profiles[0].tokenBudget'],
    [
      'no mode',
      { id: 'github', name: 'GitHub', match: ['https://github.com/*'] },
      'profiles[0].mode',
    ],
  ];

  test.each(BROKEN)('keeps a stand-in that shows nothing for %s', (_label, entry, key) => {
    const { profiles, warnings } = parseProfiles([entry], FILE);
    expect(profiles).toHaveLength(1);
    const standIn = profiles[0]!;
    expect(ProfileSchema.safeParse(standIn).success).toBe(true);
    expect(standIn).toMatchObject({ id: 'github', servers: [], mode: 'read-only' });
    // Still selected by its site, so the site does not fall to the default profile.
    expect(resolveProfile(profiles, 'https://github.com/x').profile.id).toBe('github');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`${FILE}: ${key}`);
    expect(warnings[0]).toContain('Profile "github" shows no tools until this is fixed');
  });

  it('keeps only the patterns of a broken profile that parse', () => {
    const entry = { ...github, match: ['https://github.com/*', 'github.com'], mode: 'full' };
    const { profiles } = parseProfiles([entry], FILE);
    expect(profiles[0]?.match).toEqual(['https://github.com/*']);
    expect(profiles[0]?.servers).toEqual([]);
  });

  it('locks the default profile when the default entry is broken', () => {
    const { profiles, warnings } = parseProfiles(
      [{ id: 'default', name: 'D', mode: 'fulll', match: [] }],
      FILE,
    );
    expect(profiles).toEqual([
      expect.objectContaining({ id: 'default', match: [], servers: [], mode: 'read-only' }),
    ]);
    expect(warnings[0]).toContain('profiles[0].mode');
  });

  it('locks every site when profiles is not a list', () => {
    const { profiles, warnings } = parseProfiles({ github }, FILE);
    expect(profiles).toEqual([
      expect.objectContaining({ id: 'default', servers: [], mode: 'read-only' }),
    ]);
    expect(warnings[0]).toMatch(/must be a list of profiles.*no site gets MCP tools/);
  });

  it('drops a profile without a usable id, and says its sites use the default', () => {
    const { profiles, warnings } = parseProfiles([{ ...github, id: 'Git Hub' }], FILE);
    expect(profiles).toEqual([]);
    expect(warnings[0]).toContain('profiles[0].id');
    expect(warnings[0]).toContain('no usable id');
  });

  it('keeps the first of two profiles with one id', () => {
    const { profiles, warnings } = parseProfiles([github, { ...github, mode: 'full' }], FILE);
    expect(profiles).toEqual([github]);
    expect(warnings[0]).toContain('profiles[1].id');
  });

  it('keeps a stand-in with a name it can show', () => {
    const entry = { ...github, name: `evil\u202e${'x'.repeat(200)}`, mode: 'nope' };
    const [standIn] = parseProfiles([entry], FILE).profiles;
    expect(standIn?.name).toBe('github (invalid: fix config.json)');
    const long = { ...github, name: '😀'.repeat(90), mode: 'nope' };
    const [second] = parseProfiles([long], FILE).profiles;
    expect(ProfileSchema.safeParse(second).success).toBe(true);
  });

  it('locks the profiles past the limit', () => {
    const many = Array.from({ length: 66 }, (_, i) => ({ ...github, id: `p${i}` }));
    const { profiles, warnings } = parseProfiles(many, FILE);
    expect(profiles).toHaveLength(66);
    expect(profiles[63]?.mode).toBe('read-only');
    expect(profiles[64]).toMatchObject({ id: 'p64', servers: [] });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('at most 64 profiles');
  });
});

describe('loadProfiles', () => {
  it('says where the problem is: file, line, column and key', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sy-profiles-'));
    const file = join(home, 'config.json');
    writeFileSync(
      file,
      [
        '{',
        '  "mcpServers": {},',
        '  "profiles": [',
        '    { "id": "github", "name": "GitHub", "match": ["https://github.com/*"],',
        '      "mode": "read-only", "exclude": ["github.delete"] }',
        '  ]',
        '}',
      ].join('\n'),
    );
    const loaded = await loadConfigFile(file);
    const { profiles, warnings } = await loadProfiles(file, loaded.raw);
    expect(profiles[0]?.servers).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(
      `${file}:5:40: profiles[0].exclude[0]: a tool pattern has only letters`,
    );
  });

  it('does not read the file again when all is well', async () => {
    let reads = 0;
    const result = await loadProfiles(FILE, { profiles: [github] }, () => {
      reads += 1;
      return Promise.resolve('');
    });
    expect(result.profiles).toEqual([github]);
    expect(reads).toBe(0);
  });

  it('still warns, unlocated, when the file cannot be read again', async () => {
    const result = await loadProfiles(FILE, { profiles: [{ ...github, mode: 'x' }] }, () =>
      Promise.reject(new Error('gone')),
    );
    expect(result.warnings[0]).toMatch(
      /^\/home\/alex\/\.config\/switchyard\/config\.json: profiles\[0\]\.mode: /,
    );
  });
});
