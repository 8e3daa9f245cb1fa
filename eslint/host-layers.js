// @ts-check
/**
 * The host's layers, lowest first (docs/architecture.md, "Layers"). A file may import its own
 * folder, `protocol/`, and any folder of a LOWER layer; never one of its own layer or above.
 * Each rule's message says where the import belongs instead. `installers/` is a library the CLI
 * uses: it may import `native-host/shared/` and `protocol/`, nothing else of the host.
 *
 * The rules are written as `no-restricted-imports` regex patterns over the import string, so they
 * need no resolver: every import of another host folder is relative and starts with `../`.
 */

/** @typedef {{ folders: string[], name: string }} Layer */

/** @type {Layer[]} */
export const HOST_LAYERS = [
  { folders: ['shared'], name: 'the leaf (errors, the server spec, small fs helpers)' },
  {
    folders: ['names', 'policy', 'transport', 'secrets'],
    name: 'the pure cores and the secret store',
  },
  { folders: ['trust', 'config', 'audit'], name: 'trust, config and audit' },
  { folders: ['profiles'], name: 'profiles' },
  { folders: ['supervisor'], name: 'the process supervisor' },
  { folders: ['mcp', 'auth'], name: 'the MCP client per server and its OAuth sign-in' },
  { folders: ['host'], name: 'the host services' },
  { folders: ['import'], name: 'import from other MCP clients' },
  { folders: ['rpc'], name: 'the RPC layer (dispatcher, handlers, run-host)' },
  { folders: ['cli'], name: 'the CLI' },
  // The entry compiles the bundle (main.ts and everything above) and imports none of it: only
  // Node's built-ins and small leaves of shared/ (code-cache, errno, node-flags), so it stays a few
  // KB (decision 0033).
  { folders: ['boot'], name: "the entry (loads the bundle through V8's code cache)" },
];

/** Patterns every host file carries (flat config: a later rule for a file replaces earlier ones). */
const BASE_PATTERNS = [
  { group: ['**/extension/*'], message: 'The host never imports extension code.' },
  {
    group: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'],
    message:
      'The host runs the v2 MCP client: import from @modelcontextprotocol/client (types, Client) or @modelcontextprotocol/core (schemas). The v1 SDK is not a dependency (decision 0016).',
  },
  {
    regex: '^(\\.\\./)+testing(/|$)',
    message: 'native-host/testing/ holds test helpers: only *.test.ts files and test/ import it.',
  },
];

/**
 * @param {number} index the layer's rank in HOST_LAYERS
 * @param {string} own the folder the rule is for
 * @returns {import('eslint').Linter.Config}
 */
function folderRule(index, own) {
  const layer = /** @type {Layer} */ (HOST_LAYERS[index]);
  const below = HOST_LAYERS.slice(0, index).flatMap((l) => l.folders);
  const allowed = [...below.map((f) => `${f}/`), 'protocol/'].join(', ');
  const patterns = [...BASE_PATTERNS];
  for (const [rank, other] of HOST_LAYERS.entries()) {
    if (rank < index) continue;
    for (const folder of other.folders) {
      if (folder === own) continue;
      const where =
        rank === index
          ? `is in the same layer; move what both need down into a lower layer (shared/ if everything needs it)`
          : `is layer ${rank} (${other.name}), above it; move what you need down, or let the layer above pass it in`;
      patterns.push({
        regex: `^(\\.\\./)+${folder}(/|$)`,
        message: `native-host/${own}/ is layer ${index} (${layer.name}): it may import ${allowed} and its own folder. native-host/${folder}/ ${where}.`,
      });
    }
  }
  return {
    name: `host-layers/${own}`,
    files: [`native-host/${own}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  };
}

/** @type {import('eslint').Linter.Config[]} */
export const hostLayers = [
  ...HOST_LAYERS.flatMap((layer, index) => layer.folders.map((f) => folderRule(index, f))),
  {
    name: 'host-layers/installers',
    files: ['installers/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...BASE_PATTERNS,
            {
              regex: '^(\\.\\./)+native-host/(?!shared/)',
              message:
                'installers/ is a library the CLI uses: it may import native-host/shared/ and protocol/ only. Move what it needs into native-host/shared/, or let the CLI pass it in.',
            },
          ],
        },
      ],
    },
  },
];
