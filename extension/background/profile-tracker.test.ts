import { describe, expect, test } from 'vitest';
import type { ParamsOf, ResultOf } from '../../protocol/methods';
import { builtinDefaultProfile, type Profile } from '../../protocol/profiles';
import type { ActiveProfileView } from '../messaging/ui-protocol';
import type { ConnectionState } from '../messaging/connection';
import { ProfileTracker } from './profile-tracker';

const github: Profile = {
  ...builtinDefaultProfile(),
  id: 'github',
  name: 'GitHub',
  match: ['https://github.com/*'],
};

const CONNECTED: ConnectionState = {
  state: 'connected',
  hostVersion: '0.1.0',
  home: '/h',
  configWarnings: [],
  runtime: null,
};

/**
 * A host that resolves github.com to the GitHub profile, answering in the order it is told, and
 * lists `profiles` (the user's; GitHub unless a test deletes it).
 */
function fakeHost() {
  const waiting: (() => void)[] = [];
  const later = <T>(answer: T): Promise<T> => {
    if (!host.manual) return Promise.resolve(answer);
    return new Promise((resolve) =>
      waiting.push(() => {
        resolve(answer);
      }),
    );
  };
  function request(
    method: 'profiles/resolve',
    params: ParamsOf<'profiles/resolve'>,
  ): Promise<ResultOf<'profiles/resolve'>>;
  function request(
    method: 'profiles/list',
    params: ParamsOf<'profiles/list'>,
  ): Promise<ResultOf<'profiles/list'>>;
  function request(
    method: 'profiles/resolve' | 'profiles/list',
    params: ParamsOf<'profiles/resolve'> | ParamsOf<'profiles/list'>,
  ): Promise<ResultOf<'profiles/resolve'> | ResultOf<'profiles/list'>> {
    if (method === 'profiles/list') {
      return later({ profiles: host.profiles, defaultProfile: builtinDefaultProfile() });
    }
    const url = params !== undefined && 'url' in params ? params.url : '';
    return later(
      url.startsWith('https://github.com/')
        ? { profile: github, matchedPattern: 'https://github.com/*' }
        : { profile: builtinDefaultProfile(), matchedPattern: null },
    );
  }
  const host = {
    state: CONNECTED,
    manual: false,
    profiles: [github] as Profile[],
    request,
  };
  return { host, waiting };
}

describe('ProfileTracker', () => {
  test('follows the tab and reports each change once', async () => {
    const { host } = fakeHost();
    const seen: (ActiveProfileView | null)[] = [];
    const tracker = new ProfileTracker(host, (view) => seen.push(view));
    await tracker.setUrl('https://github.com/a/b');
    await tracker.setUrl('https://github.com/a/b');
    await tracker.setUrl('https://example.com/');
    expect(seen.map((v) => v?.id)).toEqual(['github', 'default']);
    expect(tracker.profileId()).toBe('default');
    expect(seen[0]?.matchedPattern).toBe('https://github.com/*');
  });

  test('a late answer to an older question does not win', async () => {
    const { host, waiting } = fakeHost();
    host.manual = true;
    const tracker = new ProfileTracker(host, () => undefined);
    const first = tracker.setUrl('https://github.com/x');
    const second = tracker.setUrl('https://example.com/');
    waiting[1]?.();
    waiting[0]?.();
    await Promise.all([first, second]);
    expect(tracker.profileId()).toBe('default');
  });

  test('without a host the profile is unknown, and calls carry none', async () => {
    const { host } = fakeHost();
    host.state = { state: 'not-installed', message: 'missing' };
    const tracker = new ProfileTracker(host, () => undefined);
    await tracker.setUrl('https://github.com/x');
    expect(tracker.current()).toBeNull();
    expect(tracker.profileId()).toBeUndefined();
  });

  describe('a conversation opened from the history (issue 14)', () => {
    test('its profile is the active one, whatever the tab selects, until it is unpinned', async () => {
      const { host } = fakeHost();
      const seen: (ActiveProfileView | null)[] = [];
      const tracker = new ProfileTracker(host, (view) => seen.push(view));
      await tracker.setUrl('https://example.com/');
      expect(await tracker.pin('c1', { id: 'github', name: 'GitHub (then)' })).toBe('pinned');
      // The name is the profile's name now; the chip says where it comes from.
      expect(tracker.current()).toMatchObject({ id: 'github', name: 'GitHub', pinned: true });
      expect(tracker.pinnedConversation()).toBe('c1');
      await tracker.setUrl('https://example.org/');
      expect(tracker.profileId()).toBe('github');
      await tracker.unpin();
      expect(tracker.current()).toMatchObject({ id: 'default', url: 'https://example.org/' });
      expect(tracker.current()?.pinned).toBeUndefined();
      expect(seen.map((v) => v?.id)).toEqual(['default', 'github', 'github', 'default']);
    });

    test('a profile deleted since is reported, and the tab’s profile stays', async () => {
      const { host } = fakeHost();
      host.profiles = [];
      const gone: string[] = [];
      const tracker = new ProfileTracker(
        host,
        () => undefined,
        (profile, using) => gone.push(`${profile.name} -> ${using?.name ?? '?'}`),
      );
      await tracker.setUrl('https://example.com/');
      expect(await tracker.pin('c1', { id: 'github', name: 'GitHub' })).toBe('gone');
      expect(gone).toEqual(['GitHub -> Default']);
      expect(tracker.profileId()).toBe('default');
      expect(tracker.pinnedConversation()).toBeUndefined();
    });

    test('without a host the pin waits, and is checked when the host is back', async () => {
      const { host } = fakeHost();
      host.state = { state: 'not-installed', message: 'missing' };
      const tracker = new ProfileTracker(host, () => undefined);
      expect(await tracker.pin('c1', { id: 'github', name: 'GitHub' })).toBe('unknown');
      expect(tracker.profileId()).toBeUndefined();
      host.state = CONNECTED;
      await tracker.refresh();
      expect(tracker.profileId()).toBe('github');
    });
  });
});
