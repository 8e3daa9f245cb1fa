import type { Client } from '@modelcontextprotocol/client';
import type { ServerProcess } from './runtime-types';

/** One process of a server and the SDK client speaking to it. */
export interface Connection {
  /** The runtime's start that made it: a later start, or a stop, makes it stale. */
  readonly generation: number;
  readonly client: Client;
  readonly process: ServerProcess;
}

/** Closes the client and the process (its whole group: ProcessTransport). Never throws. */
export async function closeConnection(connection: Connection): Promise<void> {
  try {
    await connection.client.close();
  } catch {
    // Closing a half-open connection can throw; the process is killed by the transport anyway.
  }
  // Mid-probe the SDK does not hold the transport yet, so its close() would not reach it.
  await connection.process.transport.close();
}
