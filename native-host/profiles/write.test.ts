import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../protocol/profiles';
import { HostError } from '../shared/host-error';
import { deleteProfile, writeProfile } from './write';

const configFile = (content: unknown): string => {
  const file = join(mkdtempSync(join(tmpdir(), 'sy-profiles-write-')), 'config.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
};
const read = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

const github: Profile = {
  id: 'github',
  name: 'GitHub',
  match: ['https://github.com/*'],
  mode: 'read-only',
};
const shop: Profile = {
  id: 'shop',
  name: 'Shop',
  match: ['http://localhost:5173/*'],
  mode: 'full',
};

describe('writeProfile', () => {
  it('adds a profile and keeps every other key as written', async () => {
    const file = configFile({
      mcpServers: { a: { command: 'x' } },
      toolPolicy: { 'a__*': 'allow' },
    });
    expect(await writeProfile(file, github)).toEqual([github]);
    expect(read(file)).toEqual({
      mcpServers: { a: { command: 'x' } },
      toolPolicy: { 'a__*': 'allow' },
      profiles: [github],
    });
  });

  it('replaces a profile where it stands, so tie-breaking order does not change', async () => {
    const file = configFile({ mcpServers: {}, profiles: [github, shop] });
    const changed: Profile = { ...github, mode: 'standard' };
    expect(await writeProfile(file, changed)).toEqual([changed, shop]);
  });

  it('replaces a broken entry of the same id, and keeps other broken entries as the user wrote them', async () => {
    const broken = { id: 'github', name: 'GitHub', match: [], mode: 'nope' };
    const other = { id: 'other', name: 'Other', match: [], mode: 'nope', custom: 1 };
    const file = configFile({ mcpServers: {}, profiles: [broken, other] });
    const profiles = await writeProfile(file, github);
    expect(profiles[0]).toEqual(github);
    expect(profiles[1]).toMatchObject({ id: 'other', servers: [] });
    expect(read(file)).toEqual({ mcpServers: {}, profiles: [github, other] });
  });

  it('never overwrites a file broken by hand', async () => {
    const file = configFile('{"mcpServers": {},}');
    await expect(writeProfile(file, github)).rejects.toMatchObject({ reason: 'config-invalid' });
    expect(readFileSync(file, 'utf8')).toBe('{"mcpServers": {},}');
  });

  it('refuses to replace a profiles value that is not a list', async () => {
    const file = configFile({ mcpServers: {}, profiles: { github } });
    const error: unknown = await writeProfile(file, shop).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostError);
    expect(error).toMatchObject({ reason: 'config-invalid', details: { key: 'profiles' } });
    expect(read(file)).toEqual({ mcpServers: {}, profiles: { github } });
  });
});

describe('deleteProfile', () => {
  it('removes the entry and says so', async () => {
    const file = configFile({ mcpServers: {}, profiles: [github, shop] });
    expect(await deleteProfile(file, 'github')).toEqual({ removed: true, profiles: [shop] });
    expect(read(file)).toEqual({ mcpServers: {}, profiles: [shop] });
  });

  it('says when there was nothing to remove', async () => {
    const file = configFile({ mcpServers: {} });
    expect(await deleteProfile(file, 'github')).toEqual({ removed: false, profiles: [] });
  });
});
