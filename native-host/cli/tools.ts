import type { ExposedTool } from '../../protocol/tools';
import { table, type CliIo } from './io';
import { withCore } from './session';

/** What `tools` prints, from the listing with denied tools included. */
export interface ToolsListing {
  readonly tools: readonly ExposedTool[];
  readonly tokens: { readonly total: number; readonly byServer: Readonly<Record<string, number>> };
}

/**
 * The `switchyard tools` table: one row per tool with its policy, then what the model is sent.
 * Denied tools are listed (so you can see why one is missing from the chat) but never sent, so
 * they are counted apart and cost no tokens. Pure.
 */
export function toolsText(listing: ToolsListing): string {
  const rows = [['TOOL', 'SERVER', 'POLICY', 'TOKENS', 'DESCRIPTION']];
  for (const t of listing.tools) {
    const firstLine = t.description.split('\n')[0] ?? '';
    rows.push([
      t.name,
      t.server,
      t.policy,
      t.policy === 'deny' ? '-' : String(t.tokens),
      firstLine.length > 60 ? `${firstLine.slice(0, 59)}…` : firstLine,
    ]);
  }
  const denied = listing.tools.filter((t) => t.policy === 'deny').length;
  const sent = listing.tools.length - denied;
  const deniedNote = denied > 0 ? `; ${denied} denied, not sent` : '';
  const perServer = Object.entries(listing.tokens.byServer).map(([name, n]) => `${name} ${n}`);
  const split = perServer.length > 0 ? ` (${perServer.join(', ')})` : '';
  const noun = sent === 1 ? 'tool' : 'tools';
  return `${table(rows)}\n\n${sent} ${noun} sent to the model, ${listing.tokens.total} tokens${split}${deniedNote}\n`;
}

/** `switchyard tools [--server NAME] [--json]`: the namespaced tools the model would see. */
export async function tools(io: CliIo, args: readonly string[]): Promise<number> {
  const json = args.includes('--json');
  const serverIndex = args.indexOf('--server');
  const server = serverIndex >= 0 ? args[serverIndex + 1] : undefined;
  if (serverIndex >= 0 && server === undefined) {
    io.err('switchyard tools: --server needs a server name\n');
    return 2;
  }
  return withCore(io, (core) => {
    const listing = core.listTools(server, { includeDenied: true });
    io.out(json ? `${JSON.stringify(listing, null, 2)}\n` : toolsText(listing));
    return Promise.resolve(0);
  });
}
