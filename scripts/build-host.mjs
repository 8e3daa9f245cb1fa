// Bundles the native host and its CLI into one CommonJS file that runs on Node 20, 22 and 24.
import { build } from 'esbuild';
import { chmod, readFile } from 'node:fs/promises';
import path from 'node:path';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
const outfile = 'dist/host/switchyard.cjs';

/**
 * Modules whose top level costs the host's start something it may never use, replaced for the
 * importers named here (the replacement's own import of the module resolves as usual). Decision
 * 0030; each stand-in says why.
 */
const STAND_INS = [
  // zod's `z.locales` re-exports every language's messages (300 KB of the bundle); the host reads
  // none, and English, zod's default, stays.
  {
    filter: /^\.\.\/locales\/index\.js$/,
    importer: /[\\/]node_modules[\\/]zod[\\/]/,
    standIn: 'native-host/shared/zod-locales.ts',
  },
  // The client's SSE parser extends TransformStream at its top level: Node's web streams, built
  // on every start before the first stdio server could connect. Loaded on first use instead.
  {
    filter: /^eventsource-parser\/stream$/,
    importer: /[\\/]node_modules[\\/]@modelcontextprotocol[\\/]client[\\/]/,
    standIn: 'native-host/mcp/sse-parser-shim.ts',
  },
  // PKCE reads globalThis.crypto at its top level (Node's Web Crypto) for a sign-in only.
  {
    filter: /^pkce-challenge$/,
    importer: /[\\/]node_modules[\\/]@modelcontextprotocol[\\/]client[\\/]/,
    standIn: 'native-host/mcp/pkce-shim.ts',
  },
];

const result = await build({
  entryPoints: ['native-host/main.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  banner: { js: '#!/usr/bin/env node' },
  define: { __SWITCHYARD_VERSION__: JSON.stringify(pkg.version) },
  // jsonc-parser's default (UMD) build loads its parts with a require() esbuild cannot follow;
  // its ESM build bundles cleanly.
  alias: {
    'jsonc-parser': 'jsonc-parser/lib/esm/main.js',
    // The MCP client's Node shim bundles Ajv (about 210 KiB) for a default validator the host
    // never builds: native-host/mcp/sdk-shims.ts stands in (decision 0016).
    '@modelcontextprotocol/client/_shims': './native-host/mcp/sdk-shims.ts',
  },
  plugins: [standIns()],
  sourcemap: 'linked',
  // Smaller source, faster start: about 10 ms less to load the bundle (measured on Node 20), which
  // is on every cold start's path to spawning servers. Identifiers are kept, so stack traces still
  // name their functions; `node --enable-source-maps` maps positions back to the sources.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});
// The bundle carries one MCP SDK, the v2 client, and not the Ajv its Node shim would bring
// (decision 0016): fail the build rather than ship either by accident.
const unwanted = Object.keys(result.metafile.inputs).filter((input) =>
  /node_modules\/(@modelcontextprotocol\/sdk\/|ajv\/|@modelcontextprotocol\/client\/dist\/ajvProvider|zod\/v4\/locales\/(?!en\.js))/.test(
    input,
  ),
);
if (unwanted.length > 0) {
  throw new Error(`the host bundle must not contain:\n  ${unwanted.join('\n  ')}`);
}
const unused = STAND_INS.map((s) => s.standIn).filter(
  (file) => !Object.keys(result.metafile.inputs).includes(file),
);
if (unused.length > 0) {
  throw new Error(
    `nothing imports what these stand in for any more, drop them:\n  ${unused.join('\n  ')}`,
  );
}
await chmod(outfile, 0o755);

function standIns() {
  return {
    name: 'stand-ins',
    setup(context) {
      for (const { filter, importer, standIn } of STAND_INS) {
        context.onResolve({ filter }, (args) =>
          importer.test(args.importer) ? { path: path.resolve(standIn) } : undefined,
        );
      }
    },
  };
}
