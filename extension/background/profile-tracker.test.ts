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
};

/** A host that resolves github.com to the GitHub profile, answering in the order it is told. */
function fakeHost() {
  const waiting: (() => void)[] = [];
  const host = {
    state: CONNECTED,
    manual: false,
    request: (
      _method: 'profiles/resolve',
      { url }: ParamsOf<'profiles/resolve'>,
    ): Promise<ResultOf<'profiles/resolve'>> => {
      const answer = url.startsWith('https://github.com/')
        ? { profile: github, matchedPattern: 'https://github.com/*' }
        : { profile: builtinDefaultProfile(), matchedPattern: null };
      if (!host.manual) return Promise.resolve(answer);
      return new Promise((resolve) =>
        waiting.push(() => {
          resolve(answer);
        }),
      );
    },
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
});
