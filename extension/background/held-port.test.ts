import { describe, expect, test } from 'vitest';
import { holdPort } from './held-port';
import { FakePagePort } from './testing/fake-page-port';

// The dangerous direction: a page's request that arrives before the worker listens is lost, and
// the page waits forever (the side panel stays on "Connecting to Switchyard…").

const PANEL = {
  id: 'x',
  url: 'chrome-extension://x/sidepanel.html',
  origin: 'chrome-extension://x',
};

describe('holdPort', () => {
  test('hands messages sent before anyone listened to the first listener, in order', () => {
    const page = new FakePagePort(PANEL);
    const port = holdPort(page);
    page.send({ n: 1 });
    page.send({ n: 2 });

    const seen: unknown[] = [];
    port.onMessage.addListener((message) => seen.push(message));
    page.send({ n: 3 });

    expect(seen).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  test('tells a late listener that the page already went', () => {
    const page = new FakePagePort(PANEL);
    const port = holdPort(page);
    page.close();

    let gone = false;
    port.onDisconnect.addListener(() => {
      gone = true;
    });

    expect(gone).toBe(true);
  });

  test('passes the name, the sender and what the worker posts through', () => {
    const page = new FakePagePort(PANEL);
    const port = holdPort(page);

    port.postMessage({ kind: 'response', id: 0, ok: true, result: null });
    port.disconnect();

    expect(port.name).toBe(page.name);
    expect(port.sender).toBe(PANEL);
    expect(page.posted).toEqual([{ kind: 'response', id: 0, ok: true, result: null }]);
    expect(page.disconnected).toBe(true);
  });
});
