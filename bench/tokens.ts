import { DEV_EXTENSION_ID, chromiumOrigin } from '../protocol/identity';
import { HOST_BUNDLE } from '../test/integration/host-harness';
import { connectDirect } from './direct-client';
import { ToolListingViewSchema } from './host-views';
import { referenceServers } from './reference-servers';
import { renderTokenCost } from './report';
import { LISTING_RATIO_TARGET, tokenCost } from './token-cost';
import { renderToolSearchCost, toolSearchCost } from './tool-search';
import { startTrustedHost } from './trusted-host';

/**
 * `npm run bench:tokens`: section 3 of the bench alone (token cost of the reference servers'
 * listings, per provider format), then tool search mode's tokens per turn for 10, 100 and 1,000
 * generated tools (tool-search.ts), in seconds rather than minutes. The same code as `npm run
 * bench`; nothing is written to dist/bench/.
 */

async function main(): Promise<void> {
  const servers = referenceServers();
  try {
    const rawTools = Object.fromEntries(
      await Promise.all(
        servers.specs.map(async (spec) => {
          const direct = await connectDirect(spec);
          await direct.close();
          return [spec.name, direct.tools] as const;
        }),
      ),
    );
    const { host } = await startTrustedHost({
      bundle: process.env['SWITCHYARD_BENCH_BUNDLE'] ?? HOST_BUNDLE,
      home: servers.makeHome(),
      origin: chromiumOrigin(DEV_EXTENSION_ID),
    });
    try {
      const rawListing = await host.request('tools/list', undefined);
      const listing = ToolListingViewSchema.parse(rawListing);
      const tokens = await tokenCost(rawTools, listing, JSON.stringify(rawListing).length);
      const worst = Math.max(tokens.hostRatio, ...tokens.formats.map((f) => f.ratio));
      process.stdout.write(
        `${renderTokenCost(tokens)}\n  worst model-facing / raw = ${worst.toFixed(3)}x (target <= ${LISTING_RATIO_TARGET}x)\n`,
      );
      process.stdout.write(`\n${renderToolSearchCost(toolSearchCost())}\n`);
    } finally {
      await host.close();
    }
  } finally {
    servers.dispose();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:tokens failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
