// Bundles the native host and its CLI into one CommonJS file that runs on Node 20, 22 and 24
// (dist/host/switchyard-main.cjs), and the small entry that loads it through V8's code cache
// (dist/host/switchyard.cjs, what everything runs: decision 0033).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmod, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
const outfile = 'dist/host/switchyard-main.cjs';
const entryFile = 'dist/host/switchyard.cjs';
// The main bundle's first line names its build: the SHA-256 of everything after that line, which
// keys the code cache. Written as zeros, then filled in; the same length, so the source map's
// positions hold. The prefix is BUILD_LINE_PREFIX of native-host/shared/code-cache.ts, which
// reads it (the build runs without a TypeScript loader, so it is spelled again here; the code
// cache integration test fails if the two disagree: no cache would be written).
const BUILD_LINE_PREFIX = '//# switchyard-build=';
const UNSET_BUILD_ID = '0'.repeat(64);
/**
 * `import()` of a module outside the bundle is not wired in a script compiled by the entry
 * (vm.Script with a code cache): each one the main bundle has must be unreachable, and say why.
 */
const ALLOWED_DYNAMIC_IMPORTS = new Set([
  // pkce-challenge's fallback for a runtime without globalThis.crypto; Node has had it since 19.
  'node:crypto',
]);

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

/**
 * What the host evaluates before it answers the browser's first hello (decisions 0022, 0030):
 * main.ts and `switchyard host`'s first stage, with everything they import statically. These
 * must stay out of it, or every start pays for them before the hello: the MCP SDK and the
 * host's client code, the core, and the protocol's tool and app schemas (a name rule the first
 * stage needs lives in protocol/tool-name.ts for that reason).
 */
const FIRST_STAGE_ROOTS = ['native-host/main.ts', 'native-host/cli/host-command.ts'];
const NOT_IN_FIRST_STAGE =
  /^(node_modules\/@modelcontextprotocol\/|native-host\/(mcp|rpc\/dispatcher|host\/core)|protocol\/(tools|apps|methods)\.ts$)/;

const result = await build({
  entryPoints: ['native-host/main.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  banner: { js: `${BUILD_LINE_PREFIX}${UNSET_BUILD_ID}` },
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
const dynamic = Object.values(result.metafile.outputs)
  .flatMap((output) => output.imports)
  .filter((item) => item.kind === 'dynamic-import' && item.external === true)
  .map((item) => item.path);
const unexpected = dynamic.filter((item) => !ALLOWED_DYNAMIC_IMPORTS.has(item));
if (unexpected.length > 0) {
  throw new Error(
    `the host bundle must not import() these (use process.getBuiltinModule or a static import):\n  ${unexpected.join('\n  ')}`,
  );
}
const firstStage = staticClosure(result.metafile.inputs, FIRST_STAGE_ROOTS);
const tooEarly = [...firstStage].filter((input) => NOT_IN_FIRST_STAGE.test(input));
if (tooEarly.length > 0) {
  throw new Error(
    `the host's first stage must not load these before the hello (import them dynamically, or move what it needs into a leaf):\n  ${tooEarly.join('\n  ')}`,
  );
}
await stampBuildId(outfile);

await build({
  entryPoints: ['native-host/boot/entry.ts'],
  outfile: entryFile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  banner: { js: '#!/usr/bin/env node' },
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
});
await chmod(entryFile, 0o755);
// Until decision 0033 the whole bundle was switchyard.cjs, with its map beside it.
await rm(`${entryFile}.map`, { force: true });

/** Every input `roots` reach through static imports and requires (not `import()`). */
function staticClosure(inputs, roots) {
  for (const root of roots) if (!(root in inputs)) throw new Error(`${root} is not in the bundle`);
  const seen = new Set();
  const pending = [...roots];
  while (pending.length > 0) {
    const file = pending.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const item of inputs[file]?.imports ?? []) {
      if (item.kind !== 'dynamic-import' && item.external !== true) pending.push(item.path);
    }
  }
  return seen;
}

async function stampBuildId(file) {
  const text = await readFile(file, 'utf8');
  const firstLine = `${BUILD_LINE_PREFIX}${UNSET_BUILD_ID}\n`;
  if (!text.startsWith(firstLine)) throw new Error(`${file} does not start with its build line`);
  const id = createHash('sha256').update(text.slice(firstLine.length)).digest('hex');
  await writeFile(file, `${BUILD_LINE_PREFIX}${id}\n${text.slice(firstLine.length)}`);
}

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
