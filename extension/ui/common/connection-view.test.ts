import { describe, expect, test } from 'vitest';
import type { ConnectionState } from '../../messaging/connection';
import { connectionBannerView, splitCodeSpans, type ConnectionBannerView } from './connection-view';

describe('connectionBannerView', () => {
  test('shows nothing when connected without configuration problems', () => {
    expect(
      connectionBannerView({
        state: 'connected',
        hostVersion: '0.1.0',
        home: '/h',
        configWarnings: [],
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
    });
    expect(view).toMatchObject({ tone: 'warning', canRetry: false });
    expect(view?.details).toEqual(['config.json: "github": command is missing']);
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
