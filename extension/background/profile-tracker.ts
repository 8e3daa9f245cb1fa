import type { ActiveProfileView } from '../messaging/ui-protocol';
import type { ParamsOf, ResultOf } from '../../protocol/methods';
import type { ConnectionState } from '../messaging/connection';
import { profileLookupUrl } from '../../protocol/match-pattern';
import { UNKNOWN_ADDRESS, type TabAddress } from './active-tab';
import { MAX_RESOLVE_URL_CHARS } from '../../protocol/profiles';

/**
 * Which profile the active tab selects (design D10). The host resolves the URL (it stores the
 * profiles and enforces them); this class follows the active tab, asks again when the URL, the
 * tab or the host's profiles change, ignores answers that arrive after a newer question, and
 * reports each change. While the host is unreachable, or cannot resolve the URL, the profile is
 * unknown (null), and a run then gets no MCP tools (`forRun`): an unknown profile never falls to
 * the default, which may show more than the site's (docs/security.md).
 */
/** The part of HostClient the tracker uses. */
export interface ProfileHost {
  readonly state: ConnectionState;
  request(
    method: 'profiles/resolve',
    params: ParamsOf<'profiles/resolve'>,
  ): Promise<ResultOf<'profiles/resolve'>>;
  request(
    method: 'profiles/list',
    params: ParamsOf<'profiles/list'>,
  ): Promise<ResultOf<'profiles/list'>>;
}

/** A conversation opened from the history, and the profile it recorded at its first message. */
interface Pin {
  readonly conversationId: string;
  readonly profile: { readonly id: string; readonly name: string };
}

/** What `pin` came to: in use, deleted since (the tab's profile stays), or not known yet. */
export type PinOutcome = 'pinned' | 'gone' | 'unknown';

export class ProfileTracker {
  private address: TabAddress = null;
  private view: ActiveProfileView | null = null;
  /** Whether `view` is an answer the host gave: the last question was asked while connected. */
  private settledView = false;
  private asked = 0;
  /** The newest question's answer, settled (never rejects). */
  private answered: Promise<void> = Promise.resolve();
  /**
   * While a conversation opened from the history is on screen, its profile is the active one
   * (issue 14), whatever the tab selects; the tab selects again from the next conversation on.
   */
  private pinned: Pin | null = null;
  private lastGone: Pin | null = null;

  constructor(
    private readonly host: ProfileHost,
    /** The view changed, or whether it is settled (`isSettled`) did. */
    private readonly onChange: (view: ActiveProfileView | null, settled: boolean) => void,
    /** A pinned conversation's profile was deleted: `using` is the one the tab selected. */
    private readonly onGone?: (profile: Pin['profile'], using: ActiveProfileView | null) => void,
  ) {}

  current(): ActiveProfileView | null {
    return this.view;
  }

  /**
   * Whether `current()` is an answer the host gave: false until the first question asked while
   * the host is connected is answered, and again after one asked while it was not. A null view
   * that is not settled means "not known yet" (the host is starting), not "no profile".
   */
  isSettled(): boolean {
    return this.settledView;
  }

  /**
   * The active tab now shows `url` (null: no tab, or one without a URL; UNKNOWN_ADDRESS: a blank
   * window whose opener cannot be told, whose profile is then unknown).
   */
  async setUrl(url: TabAddress): Promise<void> {
    this.address = url;
    await this.refresh();
  }

  /**
   * Makes `profile` the active one while conversation `conversationId` is on screen. Resolves
   * `gone` when the host no longer has it (the tab's profile stays), `unknown` while the host is
   * unreachable (it is checked when the host is back).
   */
  async pin(conversationId: string, profile: Pin['profile']): Promise<PinOutcome> {
    const pin: Pin = { conversationId, profile };
    this.pinned = pin;
    await this.refresh();
    if (this.lastGone === pin) return 'gone';
    return this.pinned === pin && this.view?.pinned === true ? 'pinned' : 'unknown';
  }

  /** The tab selects the profile again (another conversation is on screen). */
  async unpin(): Promise<void> {
    if (this.pinned === null) return;
    this.pinned = null;
    await this.refresh();
  }

  /** The conversation whose profile is pinned, if one is. */
  pinnedConversation(): string | undefined {
    return this.pinned?.conversationId;
  }

  /**
   * The profile a run lists and calls with, fixed for the whole run: the tab's (or the pinned
   * conversation's) once every question asked so far is answered. When the last answer was a
   * failure it asks once more; null when the profile still cannot be known.
   */
  async forRun(): Promise<ActiveProfileView | null> {
    await this.settled();
    if (this.view === null && this.host.state.state === 'connected') await this.refresh();
    return this.view;
  }

  /** Until the newest question (and any asked meanwhile) has its answer. */
  private async settled(): Promise<void> {
    let question: number;
    do {
      question = this.asked;
      await this.answered;
    } while (question !== this.asked);
  }

  /** Resolves the current URL again (the host reconnected, or its profiles changed). */
  refresh(): Promise<void> {
    const answer = this.ask();
    this.answered = answer;
    return answer;
  }

  private async ask(): Promise<void> {
    const question = ++this.asked;

    const { address } = this;
    const url = address === UNKNOWN_ADDRESS ? null : address;
    const pin = this.pinned;
    let next: ActiveProfileView | null = null;
    let gone = false;
    const connected = this.host.state.state === 'connected';
    if (connected) {
      try {
        if (pin !== null) {
          const { profiles, defaultProfile } = await this.host.request('profiles/list', {});
          const found = [...profiles, defaultProfile].find((p) => p.id === pin.profile.id);
          if (found === undefined) gone = true;
          else next = { id: found.id, name: found.name, matchedPattern: null, url, pinned: true };
        }
        // A blank window whose opener's address cannot be told has no profile: nothing to ask.
        if (next === null && address !== UNKNOWN_ADDRESS) {
          // Only what patterns read: a page can make its query (or path) as long as it likes.
          const lookup = profileLookupUrl(url ?? '');
          if (lookup.length > MAX_RESOLVE_URL_CHARS) {
            throw new Error(
              `the tab's address is ${String(lookup.length)} characters long without its query; profiles resolve ${String(MAX_RESOLVE_URL_CHARS)} at most`,
            );
          }
          const { profile, matchedPattern } = await this.host.request('profiles/resolve', {
            url: lookup,
          });
          next = { id: profile.id, name: profile.name, matchedPattern, url };
        }
      } catch (error) {
        console.warn('[switchyard] could not resolve the profile for the active tab', error);
      }
    }
    if (question !== this.asked) return; // a newer question is on its way
    if (gone && this.pinned === pin && pin !== null) {
      this.pinned = null;
      this.lastGone = pin;
      this.onGone?.(pin.profile, next);
    }
    if (sameView(this.view, next) && this.settledView === connected) return;
    this.view = next;
    this.settledView = connected;
    this.onChange(next, connected);
  }
}

function sameView(a: ActiveProfileView | null, b: ActiveProfileView | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.id === b.id &&
    a.name === b.name &&
    a.matchedPattern === b.matchedPattern &&
    a.url === b.url &&
    a.pinned === b.pinned
  );
}
