import { describe, expect, test } from 'vitest';
import { requestMethods, type ParamsOf, type ResultOf } from '../../protocol/methods';
import { builtinDefaultProfile, type Profile } from '../../protocol/profiles';
import type { ActiveProfileView } from '../messaging/ui-protocol';
import type { ConnectionState } from '../messaging/connection';
import { UNKNOWN_ADDRESS } from './active-tab';
import { ProfileTracker } from './profile-tracker';
import { flush } from '../testing/flush';

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
    if (host.failing > 0) {
      host.failing -= 1;
      return Promise.reject(new Error('the host did not answer'));
    }
    // What the real host refuses (invalid-params), it refuses here.
    const { url } = requestMethods['profiles/resolve'].params.parse(params);
    host.asked.push(url);
    return later(
      url.startsWith('https://github.com/')
        ? { profile: github, matchedPattern: 'https://github.com/*' }
        : { profile: builtinDefaultProfile(), matchedPattern: null },
    );
  }
  const host = {
    state: CONNECTED,
    manual: false,
    /** How many of the next resolves fail. */
    failing: 0,
    /** The URLs resolves were asked for. */
    asked: [] as string[],
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
    expect(tracker.current()?.id).toBe('default');
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
    expect(tracker.current()?.id).toBe('default');
  });

  test('without a host the profile is unknown', async () => {
    const { host } = fakeHost();
    host.state = { state: 'not-installed', message: 'missing' };
    const tracker = new ProfileTracker(host, () => undefined);
    await tracker.setUrl('https://github.com/x');
    expect(tracker.current()).toBeNull();
  });

  test('is settled only by an answer the host gave: "not known yet" is not "no profile"', async () => {
    const { host } = fakeHost();
    host.state = { state: 'connecting', attempt: 0 };
    const seen: [string | undefined, boolean][] = [];
    const tracker = new ProfileTracker(host, (view, settled) => seen.push([view?.id, settled]));
    // The tab is known before the host is: nothing to tell yet.
    await tracker.setUrl('https://example.com/');
    expect([tracker.current(), tracker.isSettled()]).toEqual([null, false]);
    expect(seen).toEqual([]);
    host.state = CONNECTED;
    host.failing = 1;
    await tracker.refresh();
    // The host answered, with a failure: now the profile is unknown, and the chip says so.
    expect([tracker.current(), tracker.isSettled()]).toEqual([null, true]);
    expect(seen).toEqual([[undefined, true]]);
    await tracker.refresh();
    expect(seen).toEqual([
      [undefined, true],
      ['default', true],
    ]);
    host.state = { state: 'not-installed', message: 'missing' };
    await tracker.refresh();
    expect(seen.at(-1)).toEqual([undefined, false]);
  });

  describe('what a run gets (fail closed)', () => {
    test('asks with the address patterns read: no query, fragment or credentials', async () => {
      const { host } = fakeHost();
      const tracker = new ProfileTracker(host, () => undefined);
      await tracker.setUrl(`https://u:pw@github.com/a/b?q=${'x'.repeat(9_000)}#top`);
      expect(host.asked).toEqual(['https://github.com/a/b']);
      expect((await tracker.forRun())?.id).toBe('github');
    });

    test('an address the host cannot resolve leaves the run without a profile, never the default', async () => {
      const { host } = fakeHost();
      const tracker = new ProfileTracker(host, () => undefined);
      await tracker.setUrl('https://github.com/a');
      await tracker.setUrl(`https://github.com/${'a'.repeat(9_000)}`);
      expect(tracker.current()).toBeNull();
      expect(await tracker.forRun()).toBeNull();
    });

    test('a failed answer is asked again when a run starts', async () => {
      const { host } = fakeHost();
      host.failing = 1;
      const tracker = new ProfileTracker(host, () => undefined);
      await tracker.setUrl('https://github.com/a');
      expect(tracker.current()).toBeNull();
      expect((await tracker.forRun())?.id).toBe('github');
    });

    test('a run waits for the answer to the newest question', async () => {
      const { host, waiting } = fakeHost();
      host.manual = true;
      const tracker = new ProfileTracker(host, () => undefined);
      void tracker.setUrl('https://github.com/a');
      const run = tracker.forRun();
      void tracker.setUrl('https://example.com/');
      waiting[0]?.();
      await flush();
      waiting[1]?.();
      expect((await run)?.id).toBe('default');
    });

    test('a blank window whose opener cannot be told has no profile', async () => {
      const { host } = fakeHost();
      const tracker = new ProfileTracker(host, () => undefined);
      await tracker.setUrl('https://github.com/a');
      await tracker.setUrl(UNKNOWN_ADDRESS);
      expect(tracker.current()).toBeNull();
      expect(await tracker.forRun()).toBeNull();
      expect(host.asked).toEqual(['https://github.com/a']);
    });

    test('without a host a run has no profile', async () => {
      const { host } = fakeHost();
      host.state = { state: 'not-installed', message: 'missing' };
      const tracker = new ProfileTracker(host, () => undefined);
      await tracker.setUrl('https://github.com/x');
      expect(await tracker.forRun()).toBeNull();
    });
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
      expect(tracker.current()?.id).toBe('github');
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
      expect(tracker.current()?.id).toBe('default');
      expect(tracker.pinnedConversation()).toBeUndefined();
    });

    test('without a host the pin waits, and is checked when the host is back', async () => {
      const { host } = fakeHost();
      host.state = { state: 'not-installed', message: 'missing' };
      const tracker = new ProfileTracker(host, () => undefined);
      expect(await tracker.pin('c1', { id: 'github', name: 'GitHub' })).toBe('unknown');
      expect(tracker.current()).toBeNull();
      host.state = CONNECTED;
      await tracker.refresh();
      expect(tracker.current()?.id).toBe('github');
    });
  });
});
