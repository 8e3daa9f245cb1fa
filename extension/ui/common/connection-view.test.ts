import { describe, expect, test } from 'vitest';
import type { ConnectionState } from '../../messaging/connection';
import type { HostRuntime } from '../../../protocol/hello';
import {
  connectionBannerView,
  runtimeNoticeView,
  splitCodeSpans,
  type ConnectionBannerView,
} from './connection-view';

describe('connectionBannerView', () => {
  test('shows nothing when connected without configuration problems', () => {
    expect(
      connectionBannerView({
        state: 'connected',
        hostVersion: '0.1.0',
        home: '/h',
        configWarnings: [],
        runtime: null,
      }),
    ).toBeNull();
  });

  test.each<[string, ConnectionState, Partial<ConnectionBannerView>]>([
    [
      'not installed',
      { state: 'not-installed', message: 'Specified native messaging host not found.' },
      { tone: 'error', command: 'switchyard install', canRetry: true },
    ],
    [
      'crashed, retrying',
      { state: 'crashed', message: 'exit 1', retryInMs: 4000 },
      { tone: 'warning', command: null, canRetry: true },
    ],
    [
      'crashed, gave up',
      { state: 'crashed', message: 'exit 1', retryInMs: null },
      { tone: 'error', command: 'switchyard doctor', canRetry: true },
    ],
    [
      'protocol mismatch',
      { state: 'protocol-mismatch', host: [2], extension: 1, message: 'x' },
      { tone: 'error', command: 'switchyard install', canRetry: true },
    ],
    ['connecting', { state: 'connecting', attempt: 1 }, { tone: 'info', canRetry: false }],
    ['disconnected', { state: 'disconnected' }, { tone: 'warning', canRetry: true }],
  ])('%s', (_name, state, expected) => {
    const view = connectionBannerView(state);
    expect(view).toMatchObject(expected);
    expect(view?.message).not.toBe('');
  });

  test('lists configuration problems when connected', () => {
    const view = connectionBannerView({
      state: 'connected',
      hostVersion: '0.1.0',
      home: '/home/u/.switchyard',
      configWarnings: ['config.json: "github": command is missing'],
      runtime: null,
    });
    expect(view).toMatchObject({ tone: 'warning', canRetry: false });
    expect(view?.details).toEqual(['config.json: "github": command is missing']);
  });
});

describe('runtimeNoticeView', () => {
  const connected = (runtime: HostRuntime | null): ConnectionState => ({
    state: 'connected',
    hostVersion: '0.1.0',
    home: '/h',
    configWarnings: [],
    runtime,
  });
  const ended: HostRuntime = {
    node: '20.20.2',
    endOfLife: '2026-04-30',
    ended: true,
    suggested: 24,
  };

  test.each<[string, ConnectionState, boolean]>([
    ['a Node past its end of life', connected(ended), true],
    [
      'a maintained Node',
      connected({ node: '26.10.0', endOfLife: '2029-04-30', ended: false, suggested: 22 }),
      false,
    ],
    [
      'a line newer than the host knows',
      connected({ node: '28.0.0', endOfLife: null, ended: false, suggested: 22 }),
      false,
    ],
    ['a host too old to say', connected(null), false],
    ['not connected', { state: 'disconnected' }, false],
    ['crashed', { state: 'crashed', message: 'exit 1', retryInMs: 4000 }, false],
  ])('%s', (_name, state, shown) => {
    expect(runtimeNoticeView(state) !== null).toBe(shown);
  });

  test('says which Node, since when, what to install and what to run', () => {
    const view = runtimeNoticeView(connected(ended));
    expect(view).toMatchObject({ command: 'switchyard install', node: '20.20.2' });
    expect(view?.message).toContain('Node 20.20.2 stopped getting security fixes on 30 April 2026');
    expect(view?.message).toContain('Install Node 24 or later, then run this again with it:');
  });

  test('without a line to suggest, asks for a maintained Node', () => {
    const view = runtimeNoticeView(connected({ ...ended, suggested: null }));
    expect(view?.message).toContain('Install a maintained Node, then run');
  });
});

describe('splitCodeSpans', () => {
  test.each([
    ['run `switchyard install`, then retry', ['run ', '<switchyard install>', ', then retry']],
    ['no code here', ['no code here']],
    ['an unmatched ` backtick', ['an unmatched ', ' backtick']],
    ['`a` and `b`', ['<a>', ' and ', '<b>']],
  ])('%s', (text, expected) => {
    expect(splitCodeSpans(text).map((p) => (p.code ? `<${p.text}>` : p.text))).toEqual(expected);
  });
});
