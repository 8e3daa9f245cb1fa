import { useEffect, useRef, useState } from 'react';
import { browser } from 'wxt/browser';
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult as McpCallToolResult } from '@modelcontextprotocol/client';
import type { ExposedTool } from '../../../protocol/tools';
import type { ToolApp } from '../../messaging/conversation';
import { pageClient } from '../common/page-client';
import { safeLink, type SafeLink } from '../common/safe-link';
import { VisibleText } from '../common/VisibleText';
import { proposeMessage } from './app-messages';
import {
  DEFAULT_APP_HEIGHT,
  appToolName,
  frameHeight,
  messageText,
  readWholePage,
  type AppPage,
} from './app-view';

/**
 * An MCP App shown with its tool's result (issue 12 part 4), in the extension's sandbox page
 * (app-frame.html: opaque origin, no extension API, the manifest's sandbox policy), which writes
 * the app's HTML into a second sandboxed frame under the app's own policy. The panel speaks the
 * MCP Apps protocol with it through ext-apps' AppBridge over postMessage, accepting messages from
 * that one frame only. What the app may do through it:
 * - call its own server's tools an app may call, through the same policy and approval cards as
 *   the model's (the card says it is the app's);
 * - read its own server's resources;
 * - propose a message, which lands in the message box for the user to send or not;
 * - ask to open an http(s) link, which opens only when the user clicks Open.
 * Nothing else: no other server, no sampling, no downloads, no display modes but inline.
 */

export interface AppFrameProps {
  readonly app: ToolApp;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly callId: string;
  readonly profile: string | undefined;
}

type Phase =
  | { readonly kind: 'loading' }
  | { readonly kind: 'shown'; readonly page: AppPage }
  | { readonly kind: 'failed'; readonly message: string };

const FIREFOX = import.meta.env.FIREFOX;

function theme(): 'light' | 'dark' {
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function textResult(text: string): McpCallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

export function AppFrame({ app, arguments: args, callId, profile }: AppFrameProps) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const [height, setHeight] = useState(DEFAULT_APP_HEIGHT);
  const [link, setLink] = useState<SafeLink | null>(null);

  useEffect(() => {
    if (FIREFOX) return;
    const target = frame.current?.contentWindow;
    if (!target || !frame.current) return;
    const element = frame.current;
    const run = { stopped: false };
    // Read through a call: the effect's cleanup sets it while the awaits below are pending.
    const stopped = (): boolean => run.stopped;
    const client = pageClient();
    // What the app knows of the panel; sent again (only what changed goes out) when the user's
    // light/dark preference or the panel's width changes after the app has loaded.
    const hostContext = () => ({
      theme: theme(),
      displayMode: 'inline' as const,
      availableDisplayModes: ['inline' as const],
      platform: 'web' as const,
      locale: navigator.language,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      containerDimensions: { maxHeight: 640, width: element.clientWidth || 320 },
      toolInfo: {
        id: callId,
        tool: { name: app.tool, inputSchema: { type: 'object' as const } },
      },
    });
    const bridge = new AppBridge(
      null,
      { name: 'Switchyard', version: browser.runtime.getManifest().version },
      { serverTools: {}, serverResources: {}, openLinks: {}, message: { text: {} }, logging: {} },
      { hostContext: hostContext() },
    );
    const scheme = window.matchMedia('(prefers-color-scheme: dark)');
    // Before the app's ui/initialize there is nobody to tell: it reads the context it is given then.
    let initialized = false;
    const contextChanged = (): void => {
      if (initialized && !stopped()) bridge.setHostContext(hostContext());
    };
    scheme.addEventListener('change', contextChanged);
    const resized = new ResizeObserver(contextChanged);
    resized.observe(element);
    // The server's tools as the app may call them, listed once per frame (an app may poll a tool
    // every second) and again only when a name is not in it (the server's tools changed).
    let listing: Promise<readonly ExposedTool[]> | undefined;
    const listTools = (): Promise<readonly ExposedTool[]> =>
      client
        .host('tools/list', {
          server: app.server,
          includeAppOnly: true,
          ...(profile === undefined ? {} : { profile }),
        })
        .then((listed) => listed.tools);
    bridge.oncalltool = async (params) => {
      listing ??= listTools();
      let name = appToolName(await listing, app.server, params.name);
      if (name === undefined) {
        listing = listTools();
        name = appToolName(await listing, app.server, params.name);
      }
      if (name === undefined) {
        return textResult(`This app may not call '${params.name}'.`);
      }
      const answer = await client.request('apps/call', {
        server: app.server,
        name,
        ...(params.arguments === undefined ? {} : { arguments: { ...params.arguments } }),
      });
      return answer.kind === 'result' ? answer.result : textResult('The user denied this call.');
    };
    bridge.onreadresource = async (params) => {
      const read = await client.host('resources/read', {
        server: app.server,
        uri: params.uri,
        ...(profile === undefined ? {} : { profile }),
      });
      return { contents: read.contents };
    };
    bridge.onmessage = (params) => {
      const text = messageText(params.content);
      if (text === '') return Promise.resolve({ isError: true });
      return Promise.resolve({ isError: !proposeMessage({ server: app.server, text }) });
    };
    bridge.onopenlink = (params) => {
      // The one rule for links Switchyard did not write: http(s), no credentials.
      const url = typeof params.url === 'string' ? safeLink(params.url) : null;
      if (url === null) return Promise.resolve({ isError: true });
      setLink(url);
      return Promise.resolve({});
    };
    bridge.addEventListener('sizechange', ({ height: requested }) => {
      const next = frameHeight(requested);
      if (next !== undefined) setHeight(next);
    });
    bridge.onrequestdisplaymode = () => Promise.resolve({ mode: 'inline' });
    bridge.addEventListener('initialized', () => {
      initialized = true;
      contextChanged();
      void bridge.sendToolInput({ arguments: { ...args } });
      void bridge.sendToolResult(app.result);
    });

    void (async () => {
      try {
        const page = await readWholePage(
          (params) => client.host('apps/read', params),
          app.server,
          app.uri,
          profile,
        );
        if (stopped()) return;
        bridge.addEventListener('sandboxready', () => {
          void bridge.sendSandboxResourceReady({ html: page.html, csp: page.csp });
        });
        // Only the sandbox page's window may speak for the app: messages from anywhere else
        // (the app posting to the panel directly, another frame) are dropped by the transport.
        await bridge.connect(new PostMessageTransport(target, target));
        if (stopped()) return;
        setPhase({ kind: 'shown', page });
        element.src = browser.runtime.getURL('/app-frame.html');
      } catch (error) {
        if (!stopped()) {
          setPhase({
            kind: 'failed',
            message: error instanceof Error ? error.message : String(error),
          });
        }
      }
    })();
    return () => {
      run.stopped = true;
      scheme.removeEventListener('change', contextChanged);
      resized.disconnect();
      void bridge.close();
    };
    // The app is one tool result: it is shown once, for the props it was created with.
  }, [app.server, app.uri, callId]);

  if (FIREFOX) {
    return (
      <p className="sy-app__note">
        This tool has an app; Switchyard does not show apps in Firefox yet (it has no sandbox
        pages).
      </p>
    );
  }
  const page = phase.kind === 'shown' ? phase.page : null;
  return (
    <section className={`sy-app${page?.prefersBorder === false ? ' sy-app--borderless' : ''}`}>
      <p className="sy-app__title">
        App from <VisibleText text={app.server} />
        <span className="sy-app__note"> · runs in a sandbox, sees only this result</span>
      </p>
      {phase.kind === 'failed' ? (
        <p className="sy-app__error" role="alert">
          The app could not be shown: <VisibleText text={phase.message} />
        </p>
      ) : null}
      {phase.kind === 'loading' ? <p className="sy-app__note">Loading the app…</p> : null}
      {link === null ? null : (
        <div className="sy-app__link" role="alert">
          <span>
            The app wants to open <strong>{link.host}</strong>
          </span>
          <button
            type="button"
            onClick={() => {
              void browser.tabs.create({ url: link.href });
              setLink(null);
            }}
          >
            Open
          </button>
          <button
            type="button"
            onClick={() => {
              setLink(null);
            }}
          >
            Dismiss
          </button>
        </div>
      )}
      <iframe
        ref={frame}
        className="sy-app__frame"
        title={`App from ${app.server}`}
        sandbox="allow-scripts"
        style={{ height }}
        hidden={phase.kind === 'failed'}
      />
      {page !== null && (page.ignored.length > 0 || page.permissions.length > 0) ? (
        <p className="sy-app__note">
          Not granted:{' '}
          {[...page.ignored, ...page.permissions.map((p) => `permission ${p}`)].join(', ')}
        </p>
      ) : null}
    </section>
  );
}
