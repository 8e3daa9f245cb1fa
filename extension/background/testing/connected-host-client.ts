import { flush } from '../../testing/flush';
import { HostClient, type HostClientOptions } from '../host-client';
import { FakeClock } from './fake-clock';
import { FakeNative } from './fake-port';

/**
 * A HostClient over a fake native port that has already answered `host/hello`, so the client is
 * `connected`: the setup of every test that talks to "the host" rather than tests the handshake.
 * Logs are dropped unless `options.log` says otherwise.
 */
export async function connectedHostClient(
  options: Omit<HostClientOptions, 'connect' | 'clock'> = {},
): Promise<{ readonly native: FakeNative; readonly clock: FakeClock; readonly host: HostClient }> {
  const native = new FakeNative();
  const clock = new FakeClock();
  const host = new HostClient({ connect: native.connect, clock, log: () => undefined, ...options });
  host.connect();
  native.port.answerHello();
  await flush();
  return { native, clock, host };
}
