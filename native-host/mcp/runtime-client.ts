import { Client, type jsonSchemaValidator } from '@modelcontextprotocol/client';

/**
 * The SDK Client builds an Ajv instance (with every format) per client, to check tool output
 * against `outputSchema` in its own `callTool`/`listTools`. The host calls neither: it sends
 * `request` with its own tolerant schemas and gates results itself (design D9). Saves about 4 ms
 * at start-up and some 60 KiB of heap per server; fails loudly should anything rely on it.
 */
const NO_OUTPUT_SCHEMA_VALIDATION: jsonSchemaValidator = {
  getValidator: () => {
    throw new Error('the host does not validate tool output schemas through the SDK');
  },
};

/** The MCP roots offered to a server (file:// URIs), read on every `roots/list`. */
export type RootsSource = () => ReadonlyArray<{ readonly uri: string; readonly name?: string }>;

/** What one connection's client reports back to its runtime. */
export interface RuntimeClientHooks {
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly roots: RootsSource | undefined;
  /** The connection closed (the process exited, or it was closed). */
  readonly onClose: () => void;
  /** Protocol noise from the server (a bad line, an unknown notification): never fatal. */
  readonly onError: (error: Error) => void;
  /** `notifications/tools/list_changed` arrived. */
  readonly onToolListChanged: () => void;
}

/**
 * The SDK client for one connection to a server, not yet connected: declares the `roots`
 * capability only when `roots` is given, and then answers `roots/list` from it.
 */
export function createRuntimeClient(hooks: RuntimeClientHooks): Client {
  const roots = hooks.roots;
  const client = new Client(hooks.clientInfo, {
    capabilities: roots === undefined ? {} : { roots: { listChanged: true } },
    jsonSchemaValidator: NO_OUTPUT_SCHEMA_VALIDATION,
  });
  client.onclose = hooks.onClose;
  client.onerror = hooks.onError;
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    hooks.onToolListChanged();
  });
  if (roots !== undefined) {
    // The folders come from the user's profiles, asked for afresh on every request.
    client.setRequestHandler('roots/list', () => ({
      roots: roots().map((root) => ({ ...root })),
    }));
  }
  return client;
}
