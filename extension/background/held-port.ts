import type { WorkerPort } from './ui-server';

/**
 * A page port that connected while the worker was still starting (its stores load before the
 * page server exists). Chromium delivers a port message only to the listeners attached when it
 * arrives, so a page that connects and asks at once (the side panel's snapshot, right after the
 * worker woke up) would lose its request to a listener attached after `await startWorker(...)`,
 * and wait forever. `holdPort` listens from the moment of connection and hands every message,
 * and a disconnect, to the listeners added later, in order.
 */
export function holdPort(port: WorkerPort): WorkerPort {
  const held: unknown[] = [];
  const messageListeners: ((message: unknown) => void)[] = [];
  const disconnectListeners: (() => void)[] = [];
  let disconnected = false;

  port.onMessage.addListener((message) => {
    if (messageListeners.length === 0) held.push(message);
    for (const listener of [...messageListeners]) listener(message);
  });
  port.onDisconnect.addListener(() => {
    disconnected = true;
    for (const listener of [...disconnectListeners]) listener();
  });

  return {
    name: port.name,
    ...(port.sender === undefined ? {} : { sender: port.sender }),
    postMessage: (message) => {
      port.postMessage(message);
    },
    disconnect: () => {
      port.disconnect();
    },
    onMessage: {
      addListener: (listener) => {
        messageListeners.push(listener);
        for (const message of held.splice(0)) listener(message);
      },
    },
    onDisconnect: {
      addListener: (listener) => {
        disconnectListeners.push(listener);
        if (disconnected) listener();
      },
    },
  };
}
