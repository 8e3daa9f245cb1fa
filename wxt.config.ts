import { fileURLToPath } from 'node:url';
import { defineConfig } from 'wxt';
import { DEV_EXTENSION_KEY, GECKO_ID } from './protocol/identity';

const APP_SANDBOX_POLICY = [
  'sandbox allow-scripts',
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline' 'unsafe-eval' blob: data: https:",
  'worker-src blob: data:',
  "style-src 'self' 'unsafe-inline' https:",
  'img-src data: blob: https:',
  'font-src data: https:',
  'media-src data: blob: https:',
  'connect-src https: wss: http://localhost:* http://127.0.0.1:* ws://localhost:* ws://127.0.0.1:*',
  "frame-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

/**
 * Packages the AI SDK imports that Switchyard never runs, each replaced in the extension's build
 * by a small module of ours with the same exports (decision 0028): the Vercel AI Gateway (`ai`'s
 * default provider, for a model named by a string; every model here is an explicit provider's)
 * and the OpenTelemetry API (tracing, never enabled). test/invariants/stand-ins.test.ts checks
 * each still exports every name its importers use. Unit tests run the real packages.
 */
export const STAND_INS: Readonly<Record<string, string>> = {
  '@ai-sdk/gateway': './extension/background/providers/no-gateway.ts',
  '@opentelemetry/api': './extension/background/providers/no-telemetry.ts',
};

// See https://wxt.dev/api/config.html
export default defineConfig({
  srcDir: 'extension',
  outDir: 'dist',
  // Icons (extension/public/icon/<size>.png, rendered by scripts/icon/render.mjs).
  publicDir: 'extension/public',
  modules: ['@wxt-dev/module-react'],
  // Explicit imports everywhere: a reader can follow every name to its module.
  imports: false,
  vite: () => ({
    resolve: {
      alias: Object.entries(STAND_INS).map(([name, file]) => ({
        find: new RegExp(`^${name.replace(/[/.]/gu, '\\$&')}$`, 'u'),
        replacement: fileURLToPath(new URL(file, import.meta.url)),
      })),
    },
  }),
  manifest: ({ browser }) => ({
    name: 'Switchyard',
    description:
      'Use the MCP servers on your own machine from an AI agent in your browser, safely.',
    // `identity`: launchWebAuthFlow, the browser's window for signing in to a remote server.
    permissions: [
      'nativeMessaging',
      'storage',
      'tabs',
      'activeTab',
      'scripting',
      'contextMenus',
      'identity',
    ],
    // Reading a page without a click on the toolbar button (activeTab) needs the site's
    // permission, which the side panel asks for per site when the user wants it.
    optional_host_permissions: ['http://*/*', 'https://*/*'],
    commands: {
      'open-chat': {
        suggested_key: { default: 'Alt+Shift+Y' },
        description: 'Open the Switchyard chat',
      },
    },
    // No externally_connectable, no web_accessible_resources, the default MV3 CSP: web pages
    // cannot message the extension or load its pages (docs/security.md).
    // Firefox desktop only, on purpose: Firefox for Android has no native messaging (nor a
    // sidebar), so the add-on could never reach the host there. No `gecko_android`, since AMO
    // lists an add-on that declares it for Android. addons-linter still checks Android keys
    // against `gecko.strict_min_version` and warns that `data_collection_permissions` needs
    // Firefox for Android 142; that warning is about a platform this add-on does not target
    // (SOURCES.md). 140 is the ESR that Debian and enterprises run.
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              id: GECKO_ID,
              strict_min_version: '140.0',
              data_collection_permissions: { required: ['none'] },
            },
          },
        }
      : {
          key: DEV_EXTENSION_KEY,
          // The MCP Apps sandbox page (extension/entrypoints/app-frame.sandbox): the ceiling of
          // every app's policy, measured in Chromium 150 (decision 0020). No frame navigation
          // at all (an app cannot navigate itself to leak data), no forms, no popups; inline
          // script and eval for the app's own single-file page; network over https only, which
          // each app's own policy narrows to the origins its server declared.
          content_security_policy: { sandbox: APP_SANDBOX_POLICY },
        }),
  }),
});
