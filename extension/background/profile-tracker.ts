import type { ActiveProfileView } from '../messaging/ui-protocol';
import type { ParamsOf, ResultOf } from '../../protocol/methods';
import type { ConnectionState } from '../messaging/connection';

/**
 * Which profile the active tab selects (design D10). The host resolves the URL (it stores the
 * profiles and enforces them); this class follows the active tab, asks again when the URL, the
 * tab or the host's profiles change, ignores answers that arrive after a newer question, and
 * reports each change. While the host is unreachable the profile is unknown (null), and calls
 * go out without one: the host then applies its default profile.
 */
/** The part of HostClient the tracker uses. */
export interface ProfileHost {
  readonly state: ConnectionState;
  request(
    method: 'profiles/resolve',
    params: ParamsOf<'profiles/resolve'>,
  ): Promise<ResultOf<'profiles/resolve'>>;
}

export class ProfileTracker {
  private url: string | null = null;
  private view: ActiveProfileView | null = null;
  private asked = 0;

  constructor(
    private readonly host: ProfileHost,
    private readonly onChange: (view: ActiveProfileView | null) => void,
  ) {}

  current(): ActiveProfileView | null {
    return this.view;
  }

  /** The id to send with tools/list and tools/call. */
  profileId(): string | undefined {
    return this.view?.id;
  }

  /** The active tab now shows `url` (null: no tab, or one without a URL). */
  async setUrl(url: string | null): Promise<void> {
    this.url = url;
    await this.refresh();
  }

  /** Resolves the current URL again (the host reconnected, or its profiles changed). */
  async refresh(): Promise<void> {
    const question = ++this.asked;
    const url = this.url;
    let next: ActiveProfileView | null = null;
    if (this.host.state.state === 'connected') {
      try {
        const { profile, matchedPattern } = await this.host.request('profiles/resolve', {
          url: url ?? '',
        });
        next = { id: profile.id, name: profile.name, matchedPattern, url };
      } catch (error) {
        console.warn('[switchyard] could not resolve the profile for the active tab', error);
      }
    }
    if (question !== this.asked) return; // a newer question is on its way
    if (sameView(this.view, next)) return;
    this.view = next;
    this.onChange(next);
  }
}

function sameView(a: ActiveProfileView | null, b: ActiveProfileView | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.id === b.id && a.name === b.name && a.matchedPattern === b.matchedPattern && a.url === b.url
  );
}
