import type { ExposedTool } from '../../protocol/tools';
import { HostError } from '../shared/host-error';
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

export type ToolsArgs =
  | { readonly ok: true; readonly server: string | undefined; readonly json: boolean }
  | { readonly ok: false; readonly error: string };

/** `tools [--server NAME] [--json]`, parsed without I/O; `--server=NAME` is accepted too. */
export function parseToolsArgs(argv: readonly string[]): ToolsArgs {
  let server: string | undefined;
  let json = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const inline = arg.startsWith('--server=') ? arg.slice('--server='.length) : undefined;
    if (arg === '--json') {
      json = true;
    } else if (arg === '--server' || inline !== undefined) {
      const name = inline ?? argv[++i];
      if (name === undefined || name === '' || (inline === undefined && name.startsWith('--'))) {
        return { ok: false, error: '--server needs a server name, e.g. --server memory' };
      }
      server = name;
    } else {
      return { ok: false, error: `unknown argument '${arg.slice(0, 100)}'` };
    }
  }
  return { ok: true, server, json };
}

/** `switchyard tools [--server NAME] [--json]`: the namespaced tools the model would see. */
export async function tools(io: CliIo, args: readonly string[]): Promise<number> {
  const parsed = parseToolsArgs(args);
  if (!parsed.ok) {
    io.err(`switchyard tools: ${parsed.error}\nusage: switchyard tools [--server NAME] [--json]\n`);
    return 2;
  }
  const { server, json } = parsed;
  return withCore(
    io,
    (core) => {
      let listing;
      try {
        listing = core.listTools(server, { includeDenied: true });
      } catch (error) {
        // A server that is not configured: the message names it and what to do.
        if (!(error instanceof HostError)) throw error;
        io.err(`switchyard tools: ${error.message}\n`);
        return Promise.resolve(1);
      }
      io.out(json ? `${JSON.stringify(listing, null, 2)}\n` : toolsText(listing));
      return Promise.resolve(0);
    },
    { command: 'tools' },
  );
}
