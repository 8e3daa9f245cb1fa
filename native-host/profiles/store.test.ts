import { describe, expect, it } from 'vitest';
import type { Profile } from '../../protocol/profiles';
import { ProfileStore } from './store';

const webshop: Profile = {
  id: 'webshop',
  name: 'Webshop',
  match: ['http://localhost:5173/*'],
  mode: 'standard',
  workspace: '/home/alex/src/webshop/',
};
const docs: Profile = {
  id: 'docs',
  name: 'Docs',
  match: ['https://docs.example.com/*'],
  servers: ['filesystem'],
  mode: 'read-only',
  workspace: '/home/alex/notes',
};
const github: Profile = {
  id: 'github',
  name: 'GitHub',
  match: ['https://github.com/*'],
  servers: ['github'],
  mode: 'read-only',
};

const store = (profiles: Profile[] = [webshop, docs, github]) =>
  new ProfileStore({ profiles, sharedWorkspaces: ['/work/shared/'] });

const user = (name: string) => ({ name, workspaceRoot: null });

describe('ProfileStore', () => {
  it('answers an unknown id with unknown-profile, and undefined with the default', () => {
    const s = store();
    expect(s.get(undefined).id).toBe('default');
    expect(s.get('default').mode).toBe('full');
    expect(() => s.get('gitlab')).toThrow(expect.objectContaining({ reason: 'unknown-profile' }));
  });

  it('lists the default apart from the others', () => {
    const strict: Profile = { id: 'default', name: 'Careful', match: [], mode: 'standard' };
    const { profiles, defaultProfile } = store([webshop, strict]).list();
    expect(profiles.map((p) => p.id)).toEqual(['webshop']);
    expect(defaultProfile).toBe(strict);
  });

  it('offers each server the folders of the profiles that enable it, each once', () => {
    const s = store();
    // The default and webshop enable every user-tier server; docs only filesystem; github has
    // no folder.
    expect(s.rootsOf(user('filesystem'))).toEqual([
      { uri: 'file:///home/alex/src/webshop', name: 'webshop' },
      { uri: 'file:///home/alex/notes', name: 'notes' },
    ]);
    expect(s.rootsOf(user('github'))).toEqual([
      { uri: 'file:///home/alex/src/webshop', name: 'webshop' },
    ]);
    // The webshop's own server: only the webshop profile enables it.
    expect(s.rootsOf({ name: 'shop-db', workspaceRoot: '/home/alex/src/webshop' })).toEqual([
      { uri: 'file:///home/alex/src/webshop', name: 'webshop' },
    ]);
    // A server no profile with a folder enables gets none.
    expect(store([github]).rootsOf(user('github'))).toEqual([]);
  });

  it('encodes folder names as file URIs', () => {
    const odd: Profile = { ...webshop, workspace: '/home/alex/My Projects/#1 shop' };
    expect(store([odd]).rootsOf(user('x'))).toEqual([
      { uri: 'file:///home/alex/My%20Projects/%231%20shop', name: '#1 shop' },
    ]);
  });

  it('counts a change only when something changed', () => {
    const s = store();
    expect(
      s.replace({ profiles: [webshop, docs, github], sharedWorkspaces: ['/work/shared'] }),
    ).toBe(false);
    expect(s.version).toBe(0);
    expect(s.replace({ profiles: [webshop], sharedWorkspaces: ['/work/shared'] })).toBe(true);
    expect(s.version).toBe(1);
    expect(s.list().profiles.map((p) => p.id)).toEqual(['webshop']);
  });

  it('treats servers of the shared workspaces as every profile’s', () => {
    const s = store();
    const lint = { name: 'lint', workspaceRoot: '/work/shared' };
    expect(s.enables(webshop, lint)).toBe(true);
    expect(s.enables(github, lint)).toBe(false);
  });
});
