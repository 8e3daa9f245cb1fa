import {
  appContentSecurityPolicy,
  htmlWithPolicy,
  readDeclaredCsp,
} from '../../../protocol/app-csp';

/**
 * The frame between the side panel and an MCP App (issue 12 part 4): an extension sandbox page
 * (manifest `sandbox`), so it has an opaque origin, no extension API, and the manifest's sandbox
 * policy, which caps every app: no frame navigation at all, no forms, no popups, network only
 * over https. It is the spec's "sandbox proxy": it tells the panel it is ready, takes the app's
 * HTML once (`ui/notifications/sandbox-resource-ready`), writes it into an inner frame that is
 * sandboxed again (`allow-scripts` only) with the app's own policy in front of its markup, and
 * relays JSON-RPC messages between its parent and that frame, and nobody else.
 */

const RESOURCE_READY = 'ui/notifications/sandbox-resource-ready';

let app: HTMLIFrameElement | undefined;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isJsonRpc(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && value['jsonrpc'] === '2.0';
}

function load(params: Record<string, unknown>): void {
  const html = params['html'];
  if (app !== undefined || typeof html !== 'string') return;
  const frame = document.createElement('iframe');
  // `params.sandbox` is the server's wish to loosen this; it is never honoured.
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.setAttribute('title', 'MCP App');
  // The panel checked the origins already; a second look here costs nothing.
  const { csp } = readDeclaredCsp(params['csp']);
  frame.srcdoc = htmlWithPolicy(html, appContentSecurityPolicy(csp));
  document.body.appendChild(frame);
  app = frame;
}

window.addEventListener('message', (event) => {
  const message: unknown = event.data;
  if (!isJsonRpc(message)) return;
  if (event.source === window.parent) {
    if (message['method'] === RESOURCE_READY) {
      if (isRecord(message['params'])) load(message['params']);
      return;
    }
    app?.contentWindow?.postMessage(message, '*');
    return;
  }
  if (app !== undefined && event.source === app.contentWindow) {
    window.parent.postMessage(message, '*');
  }
  // Anything else (another frame, the app's own children) is dropped.
});

window.parent.postMessage(
  { jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} },
  '*',
);
