import { describe, expect, it, test } from 'vitest';
import { FakePort } from './testing/fake-port';
import {
  TransportClosedError,
  classifyDisconnect,
  createPortTransport,
  type DisconnectInfo,
} from './port-transport';

/*
 * Dangerous direction: a missing host reported as a crash hides the one instruction that fixes
 * it ("run `switchyard install`") behind a reconnect loop that can never succeed; a crash
 * reported as "not installed" sends the user to reinstall a host that is there.
 */
describe('classifyDisconnect', () => {
  test.each([
    ['Specified native messaging host not found.', 'not-installed'],
    ['Access to the specified native messaging host is forbidden.', 'not-installed'],
    ['Invalid native messaging host name specified.', 'not-installed'],
    ['Failed to start native messaging host.', 'not-installed'],
    ['No such native application com.switchyard.host', 'not-installed'],
    ['Native host has exited.', 'crashed'],
    ['Error when communicating with the native messaging host.', 'crashed'],
    ['An unexpected error occurred', 'crashed'],
    [undefined, 'crashed'],
    ['', 'crashed'],
  ] as const)('%j -> %s', (message, kind) => {
    expect(classifyDisconnect(message).kind).toBe(kind);
  });

  it("keeps the browser's message for the user", () => {
    expect(classifyDisconnect('Native host has exited.').message).toBe('Native host has exited.');
  });
});

function open(): { port: FakePort; received: unknown[]; drops: DisconnectInfo[] } {
  const port = new FakePort();
  const received: unknown[] = [];
  const drops: DisconnectInfo[] = [];
  createPortTransport(
    port,
    { onMessage: (m) => received.push(m), onDisconnect: (info) => drops.push(info) },
    () => port.lastError,
  );
  return { port, received, drops };
}

describe('createPortTransport', () => {
  it('relays messages both ways', () => {
    const port = new FakePort();
    const received: unknown[] = [];
    const transport = createPortTransport(
      port,
      { onMessage: (m) => received.push(m), onDisconnect: () => undefined },
      () => undefined,
    );
    transport.send({ jsonrpc: '2.0', method: 'x' });
    port.deliver({ hello: 1 });
    expect(port.posted).toEqual([{ jsonrpc: '2.0', method: 'x' }]);
    expect(received).toEqual([{ hello: 1 }]);
  });

  it('reports a drop once, classified from lastError read inside the listener', () => {
    const { port, drops } = open();
    port.drop('Specified native messaging host not found.');
    port.drop('Native host has exited.');
    expect(drops).toEqual([
      { kind: 'not-installed', message: 'Specified native messaging host not found.' },
    ]);
  });

  it('throws TransportClosedError on send after a drop, and ignores later messages', () => {
    const port = new FakePort();
    const received: unknown[] = [];
    const transport = createPortTransport(
      port,
      { onMessage: (m) => received.push(m), onDisconnect: () => undefined },
      () => port.lastError,
    );
    port.drop();
    port.deliver({ late: true });
    expect(() => {
      transport.send({});
    }).toThrow(TransportClosedError);
    expect(received).toEqual([]);
  });

  it('close() disconnects the port and reports nothing', () => {
    const port = new FakePort();
    const drops: DisconnectInfo[] = [];
    const transport = createPortTransport(
      port,
      { onMessage: () => undefined, onDisconnect: (info) => drops.push(info) },
      () => port.lastError,
    );
    transport.close();
    port.drop();
    expect(port.disconnectedByExtension).toBe(true);
    expect(drops).toEqual([]);
  });

  it('turns a throwing postMessage into TransportClosedError', () => {
    const port = new FakePort();
    const transport = createPortTransport(
      port,
      { onMessage: () => undefined, onDisconnect: () => undefined },
      () => undefined,
    );
    port.disconnect();
    expect(() => {
      transport.send({});
    }).toThrow(/disconnected port/);
  });
});
