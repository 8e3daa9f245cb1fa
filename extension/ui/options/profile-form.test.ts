import { describe, expect, it, test } from 'vitest';
import type { Profile } from '../../../protocol/profiles';
import {
  fieldsFromProfile,
  lines,
  NEW_PROFILE_FIELDS,
  parseProfileForm,
  profileIdFor,
  profileSummary,
  type ProfileField,
  type ProfileFields,
} from './profile-form';

// The dangerous direction is a profile saved wider than the form showed: a server list that
// became "all servers", an exclude glob dropped, a pattern that matches more than it reads. A
// form that refuses and names the line is only a nuisance.

function fields(overrides: Partial<ProfileFields>): ProfileFields {
  return { ...NEW_PROFILE_FIELDS, id: 'github', name: 'GitHub', ...overrides };
}

const full: Profile = {
  id: 'webshop',
  name: 'Webshop dev',
  match: ['http://localhost:5173/*', 'https://shop.example.com/*'],
  servers: ['shop-db', 'filesystem'],
  include: ['shop-db__*'],
  exclude: ['shop-db__delete_*'],
  mode: 'read-only',
  policy: { 'shop-db__query_*': 'allow' },
  workspace: '/home/alex/src/webshop',
  tokenBudget: 8000,
  toolSearch: 'on',
  pinnedTools: ['shop-db__query_orders', 'filesystem__read_*'],
};

describe('round trip', () => {
  it('turns a profile into fields and back unchanged', () => {
    expect(parseProfileForm(fieldsFromProfile(full))).toEqual({ ok: true, profile: full });
  });

  it('keeps the minimal default profile minimal', () => {
    const minimal: Profile = { id: 'default', name: 'Default', match: [], mode: 'full' };
    expect(parseProfileForm(fieldsFromProfile(minimal))).toEqual({ ok: true, profile: minimal });
  });

  it('writes tool search "auto" as no key, so older configs read the same', () => {
    const result = parseProfileForm(fields({ toolSearch: 'auto', pinnedTools: '\n' }));
    expect(result.ok && 'toolSearch' in result.profile).toBe(false);
    expect(result.ok && 'pinnedTools' in result.profile).toBe(false);
  });

  it('sends an empty server list as "no servers", not "all servers"', () => {
    const result = parseProfileForm(fields({ allServers: false, servers: [] }));
    expect(result.ok && result.profile.servers).toEqual([]);
  });

  it('reads lines trimmed, blank ones skipped, and a budget with separators', () => {
    expect(lines(' a \r\n\n b\n')).toEqual(['a', 'b']);
    const result = parseProfileForm(fields({ tokenBudget: '12,000' }));
    expect(result.ok && result.profile.tokenBudget).toBe(12000);
  });
});

describe('refusals name the field and the line', () => {
  test.each<[string, Partial<ProfileFields>, ProfileField, RegExp]>([
    ['an empty name', { name: ' ' }, 'name', /cannot be empty/],
    ['a bad id', { id: 'Git Hub' }, 'id', /lower-case/],
    [
      'a pattern without a path',
      { match: 'https://a.example/*\nhttps://github.com' },
      'match',
      /^Line 2: .*no path/,
    ],
    ['a query in a pattern', { match: 'https://github.com/*?q' }, 'match', /^Line 1: /],
    ['a glob with a space', { exclude: 'gh__*\ngh delete' }, 'exclude', /^Line 2: .*only letters/],
    ['a relative workspace', { workspace: 'src/shop' }, 'workspace', /absolute path/],
    [
      'a pin with a space',
      { pinnedTools: 'gh__a\ngh b' },
      'pinnedTools',
      /^Line 2: .*only letters/,
    ],
    ['a budget in words', { tokenBudget: 'lots' }, 'tokenBudget', /whole number/],
    ['a zero budget', { tokenBudget: '0' }, 'tokenBudget', /./],
    [
      'patterns on the default profile',
      { id: 'default', match: 'https://x.example/*' },
      'match',
      /leave "match" empty/,
    ],
  ])('%s', (_, overrides, field, message) => {
    const result = parseProfileForm(fields(overrides));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[field]).toMatch(message);
  });
});

describe('ids', () => {
  test.each([
    ['GitHub work', [], 'github-work'],
    ['  Café  Ünïcode ', [], 'cafe-unicode'],
    ['日本', [], 'profile'],
    ['GitHub', ['github'], 'github-2'],
    ['GitHub', ['github', 'github-2'], 'github-3'],
  ])('%s -> %s', (name, taken, id) => {
    const made = profileIdFor(name, taken);
    expect(made).toBe(id);
    expect(parseProfileForm(fields({ id: made })).ok).toBe(true);
  });

  it('stays within 64 characters', () => {
    const id = profileIdFor('x'.repeat(100), ['x'.repeat(56)]);
    expect(id.length).toBeLessThanOrEqual(64);
    expect(parseProfileForm(fields({ id })).ok).toBe(true);
  });
});

describe('summary', () => {
  it('says what a profile covers', () => {
    expect(profileSummary(full)).toBe(
      'http://localhost:5173/*, https://shop.example.com/* · 2 servers · read-only · budget 8,000 tokens · tool search on',
    );
    expect(profileSummary({ id: 'default', name: 'Default', match: [], mode: 'full' })).toBe(
      'every site no other profile matches · all servers · full',
    );
  });
});
