import { APPS_EXTENSION_KEY, APP_MIME_TYPE } from '../../protocol/apps';
import {
  Client,
  ProtocolError,
  ProtocolErrorCode,
  type jsonSchemaValidator,
} from '@modelcontextprotocol/client';

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
  /**
   * How long the `server/discover` probe waits for an answer before the server counts as a
   * 2025-era one that ignores unknown requests (and gets `initialize`).
   */
  readonly probeTimeoutMs: number;
  /** Declare MCP Apps support (`extensions["io.modelcontextprotocol/ui"]`) to the server. */
  readonly apps?: boolean;
  /** The connection closed (the process exited, or it was closed). */
  readonly onClose: () => void;
  /** Protocol noise from the server (a bad line, an unknown notification): never fatal. */
  readonly onError: (error: Error) => void;
  /** `notifications/tools/list_changed` arrived. */
  readonly onToolListChanged: () => void;
  /**
   * A server's other announcements (issue 12): its resource or prompt list changed, or a resource
   * the host subscribed to was updated (`uri` is the server's, not yet gated).
   */
  readonly onFeatureNotice: (notice: FeatureNotice) => void;
  /**
   * The server asks the user something (`elicitation/create`, issue 12); absent: the client
   * declares no `elicitation` capability. `signal` fires when the server cancels its request.
   */
  readonly onElicitation?: (params: unknown, signal: AbortSignal) => Promise<ElicitationAnswer>;
}

/** What goes back to a server's `elicitation/create`. */
export type ElicitationAnswer =
  | {
      readonly action: 'accept';
      readonly content?: Readonly<Record<string, string | number | boolean | string[]>>;
    }
  | { readonly action: 'decline' | 'cancel' };

/** A server's announcement about its resources or prompts. */
export type FeatureNotice =
  | { readonly kind: 'resources-changed' | 'prompts-changed' }
  | { readonly kind: 'resource-updated'; readonly uri: string };

/**
 * The SDK client for one connection to a server, not yet connected: declares the `roots`
 * capability only when `roots` is given, and then answers `roots/list` from it (a 2026-07-28
 * server asks for them inside its answers instead, and the SDK answers through the same handler).
 *
 * It negotiates in the SDK's `'auto'` mode (decision 0016): `connect` probes with `server/discover`
 * and speaks 2026-07-28 with a server that offers it, or falls back to the 2025 `initialize`
 * handshake; `connect({ prior: { kind: 'legacy' } })` skips the probe for a server known to be
 * legacy. The probe runs in place, on our transport: the SDK's own stdio transport would spawn
 * every server twice.
 */
export function createRuntimeClient(hooks: RuntimeClientHooks): Client {
  const roots = hooks.roots;
  const ask = hooks.onElicitation;
  const client = new Client(hooks.clientInfo, {
    capabilities: {
      ...(roots === undefined ? {} : { roots: { listChanged: true } }),
      // Sampling is not offered: deprecated by 2026-07-28, and a stranger's server would spend
      // the user's model budget with prompts of its own (docs/security.md).
      ...(ask === undefined ? {} : { elicitation: { form: {}, url: {} } }),
      // A server may shape its tools for a client that renders apps (docs/security.md, apps).
      ...(hooks.apps === true
        ? { extensions: { [APPS_EXTENSION_KEY]: { mimeTypes: [APP_MIME_TYPE] } } }
        : {}),
    },
    jsonSchemaValidator: NO_OUTPUT_SCHEMA_VALIDATION,
    versionNegotiation: { mode: 'auto', probe: { timeoutMs: hooks.probeTimeoutMs } },
  });
  client.onclose = hooks.onClose;
  client.onerror = hooks.onError;
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    hooks.onToolListChanged();
  });
  client.setNotificationHandler('notifications/resources/list_changed', () => {
    hooks.onFeatureNotice({ kind: 'resources-changed' });
  });
  client.setNotificationHandler('notifications/prompts/list_changed', () => {
    hooks.onFeatureNotice({ kind: 'prompts-changed' });
  });
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    hooks.onFeatureNotice({ kind: 'resource-updated', uri: notification.params.uri });
  });
  // Sampling is deprecated by 2026-07-28 and not offered: a server that asks anyway is told so in
  // words, not with a bare "Method not found".
  client.fallbackRequestHandler = (request) =>
    Promise.reject(
      new ProtocolError(
        ProtocolErrorCode.MethodNotFound,
        request.method === 'sampling/createMessage'
          ? "Switchyard does not offer sampling: a server cannot use the user's model. Ask the user through elicitation, or do the work in the tool."
          : `Switchyard does not handle '${request.method.slice(0, 64)}'.`,
      ),
    );
  if (ask !== undefined) {
    client.setRequestHandler('elicitation/create', async (request, ctx) => {
      const answer = await ask(request.params, ctx.mcpReq.signal);
      return answer.action === 'accept' && answer.content !== undefined
        ? { action: 'accept', content: { ...answer.content } }
        : { action: answer.action };
    });
  }
  if (roots !== undefined) {
    // The folders come from the user's profiles, asked for afresh on every request.
    client.setRequestHandler('roots/list', () => ({
      roots: roots().map((root) => ({ ...root })),
    }));
  }
  return client;
}
