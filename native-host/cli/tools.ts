import { table, type CliIo } from './io';
import { withCore } from './session';

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
    if (json) {
      io.out(`${JSON.stringify(listing, null, 2)}\n`);
      return Promise.resolve(0);
    }
    const rows = [['TOOL', 'SERVER', 'POLICY', 'TOKENS', 'DESCRIPTION']];
    for (const t of listing.tools) {
      const firstLine = t.description.split('\n')[0] ?? '';
      rows.push([
        t.name,
        t.server,
        String(t.tokens),
        firstLine.length > 60 ? `${firstLine.slice(0, 59)}…` : firstLine,
      ]);
    }
    io.out(`${table(rows)}\n\n${listing.tools.length} tools, ${listing.tokens.total} tokens`);
    const perServer = Object.entries(listing.tokens.byServer).map(([name, n]) => `${name} ${n}`);
    io.out(perServer.length > 0 ? ` (${perServer.join(', ')})\n` : '\n');
    return Promise.resolve(0);
  });
}
