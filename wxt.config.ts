import { defineConfig } from 'wxt';
import { DEV_EXTENSION_KEY, GECKO_ID } from './protocol/identity';

// See https://wxt.dev/api/config.html
export default defineConfig({
  srcDir: 'extension',
  outDir: 'dist',
  // Icons (extension/public/icon/<size>.png, rendered by scripts/icon/render.mjs).
  publicDir: 'extension/public',
  modules: ['@wxt-dev/module-react'],
  // Explicit imports everywhere: a reader can follow every name to its module.
  imports: false,
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
      : { key: DEV_EXTENSION_KEY }),
  }),
});
