import { browser } from 'wxt/browser';
import { z } from 'zod';
import { HOST_NAME } from '../../protocol/identity';
import { messageOf } from '../../protocol/guards';

/**
 * The transport layer of the native channel (style habit 5): moves already-decoded JSON values
 * over a `runtime.Port` and says why the port closed. It knows nothing of JSON-RPC; the host
 * client above it correlates requests. The browser does the framing (design section 4).
 */

/** The part of `runtime.Port` the transport uses; tests hand in an in-memory port. */
export interface PortLike {
  postMessage(message: unknown): void;
  disconnect(): void;
  readonly onMessage: { addListener(callback: (message: unknown) => void): void };
  readonly onDisconnect: { addListener(callback: () => void): void };
}

/**
 * Why the port closed. `not-installed`: the browser could not find or may not start the host, so
 * retrying will not help until the user (re)installs it. `crashed`: the host ran and went away.
 */
export interface DisconnectInfo {
  readonly kind: 'not-installed' | 'crashed';
  /** The browser's own message (`runtime.lastError`), or a description when it gave none. */
  readonly message: string;
}

export interface TransportHandlers {
  onMessage(message: unknown): void;
  /** Called at most once, when the other side (or the browser) closed the port; never after `close()`. */
  onDisconnect(info: DisconnectInfo): void;
}

export interface Transport {
  /** Posts one message. Throws TransportClosedError once the port is gone. */
  send(message: unknown): void;
  /** Closes the port (the browser closes the host's stdin). No `onDisconnect` follows. */
  close(): void;
}

/** Opens a new transport; the host client calls it once per connection attempt. */
export type TransportFactory = (handlers: TransportHandlers) => Transport;

export class TransportClosedError extends Error {
  constructor(message = 'The native port is closed.') {
    super(message);
    this.name = 'TransportClosedError';
  }
}

/**
 * Browser messages that mean the host is missing or unusable as installed (Chromium's
 * `native_messaging` errors, Firefox's "No such native application"). Anything else after the
 * port opened, e.g. "Native host has exited.", means the host ran and stopped.
 */
const NOT_INSTALLED_PATTERNS: readonly RegExp[] = [
  /native messaging host not found/i,
  /access to the specified native messaging host is forbidden/i,
  /invalid native messaging host name/i,
  /failed to start native messaging host/i,
  /no such native application/i,
];

/** Classifies a disconnect from the browser's message (see NOT_INSTALLED_PATTERNS). */
export function classifyDisconnect(message: string | undefined): DisconnectInfo {
  if (message === undefined || message === '') {
    return { kind: 'crashed', message: 'The Switchyard host closed the connection.' };
  }
  const missing = NOT_INSTALLED_PATTERNS.some((pattern) => pattern.test(message));
  return { kind: missing ? 'not-installed' : 'crashed', message };
}

/**
 * Wraps a port. `readError` is read synchronously inside the disconnect listener, where Chromium
 * sets `runtime.lastError` (reading it there also keeps Chromium from logging it as unchecked).
 */
export function createPortTransport(
  port: PortLike,
  handlers: TransportHandlers,
  readError: () => string | undefined,
): Transport {
  let open = true;
  port.onMessage.addListener((message) => {
    if (open) handlers.onMessage(message);
  });
  port.onDisconnect.addListener(() => {
    const error = readError();
    if (!open) return;
    open = false;
    handlers.onDisconnect(classifyDisconnect(error));
  });
  return {
    send(message) {
      if (!open) throw new TransportClosedError();
      try {
        port.postMessage(message);
      } catch (error) {
        // Chromium throws "Attempting to use a disconnected port object" before onDisconnect runs.
        throw new TransportClosedError(messageOf(error));
      }
    },
    close() {
      if (!open) return;
      open = false;
      port.disconnect();
    },
  };
}

/** Firefox reports a port's error on `port.error` rather than `runtime.lastError`. */
const FirefoxPortErrorSchema = z.object({ error: z.object({ message: z.string() }).nullish() });

/**
 * The production transport: `runtime.connectNative(name)`. Only the service worker calls this
 * (design D12: one host process per port, the worker is its sole owner).
 */
export function connectNativeHost(
  handlers: TransportHandlers,
  name: string = HOST_NAME,
): Transport {
  const port = browser.runtime.connectNative(name);
  return createPortTransport(
    port,
    handlers,
    () =>
      browser.runtime.lastError?.message ??
      FirefoxPortErrorSchema.safeParse(port).data?.error?.message ??
      undefined,
  );
}
