import type { ServerState, ServerSummary } from '../../protocol/servers';
import { describeExit } from '../../protocol/servers';
import { oauthRedirectText } from './oauth-redirects';
import { profileReport } from './profile-report';
import { installSection } from './install-doctor';
import { table, type CliIo } from './io';
import { withCore } from './session';
import path from 'node:path';
import { RUN_FOLDER, readReaped, type ReapedGroup } from '../supervisor/group-records';
import { shimNotes, shimSection } from './shim-text';
import { secretsSection } from './secrets-doctor';

/**
 * `switchyard doctor`: loads the configuration, starts every server the way the host would, and
 * reports each one's state, handshake time, tool count and token cost, then every problem with
 * what to do about it. Exit code 0 when nothing is wrong, 1 otherwise.
 */

function stateText(state: ServerState): string {
  switch (state.state) {
    case 'running':
      return 'running';
    case 'stopped':
      return 'stopped';
    case 'needs-approval':
      return `needs approval (${state.consent.reason})`;
    case 'starting':
      return 'starting';
    case 'crashed':
      return `crashed (${describeExit(state.exit)})`;
    case 'failed':
      return `failed: ${state.reason}`;
  }
}

function fixFor(server: ServerSummary): string | undefined {
  const state = server.status;
  switch (state.state) {
    case 'failed':
      return `${server.name}: ${state.message}`;
    case 'crashed':
      return `${server.name}: crashed (${describeExit(state.exit)}) and is being restarted.`;
    case 'running':
      return server.toolCount === 0 ? `${server.name}: running but lists no tools.` : undefined;
    case 'needs-approval':
      return `${server.name}: ${state.consent.summary}. Review it with 'switchyard trust ${server.name}'.`;
    case 'starting':
    case 'stopped':
      return undefined;
  }
}

/**
 * One row per server: its state, the MCP revision it negotiated, its handshake time, tools,
 * token cost and the command line: `runs` (by server name) when the host knows the argv it
 * spawns (node + script for a Windows npm shim), else the resolved program and the args. Pure.
 */
export function serversTable(
  servers: readonly ServerSummary[],
  runs: ReadonlyMap<string, readonly string[]> = new Map(),
): string {
  const rows = [['SERVER', 'STATE', 'MCP', 'HANDSHAKE', 'TOOLS', 'TOKENS', 'COMMAND OR URL']];
  for (const s of servers) {
    const running = s.status.state === 'running' ? s.status : undefined;
    rows.push([
      s.name,
      stateText(s.status),
      running?.protocolVersion ?? '-',
      running ? `${Math.round(running.handshakeMs)} ms` : '-',
      String(s.toolCount),
      String(s.tokens),
      s.remote === null
        ? (runs.get(s.name) ?? [s.resolvedCommand ?? s.command, ...s.args]).join(' ')
        : `${s.remote.url}${s.remote.transport === 'sse' ? ' (sse)' : ''}`,
    ]);
  }
  return table(rows);
}

export async function doctor(io: CliIo, args: readonly string[]): Promise<number> {
  // A typo such as --jsno printed the text report to a script that expected JSON.
  const unknown = args.find((a) => a !== '--json');
  if (unknown !== undefined) {
    io.err(
      `switchyard doctor: unknown argument '${unknown.slice(0, 100)}'\nusage: switchyard doctor [--json]\n`,
    );
    return 2;
  }
  const json = args.includes('--json');
  const install = await installSection(io);
  return withCore(io, async (core, setup) => {
    const reaped =
      setup.home === null ? [] : (await readReaped(path.join(setup.home, RUN_FOLDER))).reverse();
    const servers = core.listServers();
    const { tokens } = core.listTools();
    const profiles = profileReport(core.profileCosts());
    const shims = shimNotes(setup.specs);
    const secrets = await secretsSection(io, setup.home, setup.specs, servers);
    const problems = [
      ...setup.warnings,
      ...secrets.problems,
      ...profiles.problems,
      ...install.problems,
      ...servers.map(fixFor).filter((p): p is string => p !== undefined),
    ];
    if (json) {
      io.out(
        `${JSON.stringify({ home: setup.home, configFile: setup.configFile, install: install.json, secrets: secrets.json, servers, shims, tokens, profiles: profiles.json, reaped, problems }, null, 2)}\n`,
      );
      return problems.length === 0 ? 0 : 1;
    }
    io.out(`Switchyard home: ${setup.home ?? '(unknown)'}\n`);
    io.out(
      `Config file:     ${setup.configFile ?? '(none)'}${setup.configRejected ? '  [REJECTED]' : ''}\n\n`,
    );
    if (servers.length === 0) {
      io.out('No servers are configured. Add one to config.json, e.g.\n');
      io.out(
        '  {"mcpServers": {"memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}}}\n',
      );
    } else {
      const runs = new Map(shims.map((note) => [note.server, note.runs]));
      io.out(
        `${serversTable(servers, runs)}\n\nTool listing: ${tokens.total} tokens sent with every model turn.\n`,
      );
      const shimText = shimSection(setup.specs);
      if (shimText !== '') io.out(`\n${shimText}`);
    }
    const redirects = oauthRedirectText(servers, install.extensionIds);
    if (redirects !== '') io.out(`\n${redirects}`);
    io.out(`\n${secrets.text}`);
    if (profiles.text !== '') io.out(`\n${profiles.text}`);
    if (reaped.length > 0) io.out(`\n${reapedText(reaped)}`);
    io.out(`\n${install.text}`);
    if (problems.length > 0) {
      io.out(`\nProblems (${problems.length}):\n`);
      for (const p of problems) io.out(`  - ${p}\n`);
    } else {
      io.out('\nNo problems found.\n');
    }
    return problems.length === 0 ? 0 : 1;
  });
}

const REAPED_SHOWN = 5;

/** Servers a host stopped because the host that ran them died without its shutdown. */
export function reapedText(reaped: readonly ReapedGroup[]): string {
  const lines = reaped
    .slice(0, REAPED_SHOWN)
    .map(
      (r) =>
        `  ${r.at}  ${r.server} (process group ${r.pgid}, left by host ${r.hostPid}; ${r.signal === 'SIGKILL' ? 'killed' : 'stopped'})\n`,
    );
  const more =
    reaped.length > REAPED_SHOWN ? `  ... and ${reaped.length - REAPED_SHOWN} more\n` : '';
  return (
    'Servers left running by a host that died without its shutdown, stopped when the next host ' +
    `started (newest first):\n${lines.join('')}${more}`
  );
}
