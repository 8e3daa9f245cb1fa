// Bundles the native host and its CLI into one CommonJS file that runs on Node 20, 22 and 24.
import { build } from 'esbuild';
import { chmod, readFile } from 'node:fs/promises';
import path from 'node:path';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
const outfile = 'dist/host/switchyard.cjs';

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
  plugins: [zodEnglishOnly(), lazySseParser()],
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
if (!Object.keys(result.metafile.inputs).includes('native-host/mcp/sse-parser-shim.ts')) {
  throw new Error('the MCP client no longer imports eventsource-parser/stream: drop the shim');
}
await chmod(outfile, 0o755);

/**
 * zod's `z.locales` namespace re-exports every language's messages; the host reads none of them
 * and evaluating them sat on its path to answering the browser (decision 0028). The index is
 * replaced by native-host/shared/zod-locales.ts, which keeps English.
 */
function zodEnglishOnly() {
  const standIn = path.resolve('native-host/shared/zod-locales.ts');
  return {
    name: 'zod-english-only',
    setup(context) {
      context.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
        /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: standIn } : undefined,
      );
    },
  };
}

/**
 * The MCP client's `eventsource-parser/stream` goes through native-host/mcp/sse-parser-shim.ts,
 * which evaluates it on first use: its top level extends TransformStream, and building Node's web
 * streams on every start cost about 10 ms before the first server connected (decision 0028). The
 * shim's own import of the module resolves as usual.
 */
function lazySseParser() {
  const shim = path.resolve('native-host/mcp/sse-parser-shim.ts');
  return {
    name: 'lazy-sse-parser',
    setup(context) {
      context.onResolve({ filter: /^eventsource-parser\/stream$/ }, (args) =>
        /[\\/]node_modules[\\/]@modelcontextprotocol[\\/]client[\\/]/.test(args.importer)
          ? { path: shim }
          : undefined,
      );
    },
  };
}
