import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { DEV_EXTENSION_ID, chromiumOrigin } from '../../protocol/identity';
import { requestMethods } from '../../protocol/methods';
import type { ServerSummary } from '../../protocol/index';
import { ApprovalTokenSchema, type ExposedTool } from '../../protocol/tools';
import { table } from '../../native-host/cli/io';
import { FramesClient, HostRpcError } from '../../bench/frames-client';
import { DEMO_PROFILE_ID, type StartLayout } from './demo';

/**
 * The headless self-check: starts the real host the way a browser does (native-messaging frames
 * on stdin/stdout, the extension's origin as its argument), waits for the demo servers, prints
 * every namespaced tool with its policy under the default and the Demo profile and its token
 * cost, and relays two calls: one through the approval flow (default profile: every call asks),
 * one the Demo profile allows. Returns whether everything answered.
 */

const SERVER_START_POLLS = 300;
const POLL_MS = 50;

export async function runSelfCheck(
  layout: StartLayout,
  print: (line: string) => void,
): Promise<boolean> {
  const host = FramesClient.spawn({
    bundle: layout.bundle,
    home: layout.home,
    origin: chromiumOrigin(DEV_EXTENSION_ID),
  });
  try {
    const hello = await host.hello();
    print(`Host ${hello.host.version} speaks protocol ${hello.protocolVersion}.`);
    let servers: ServerSummary[] = [];
    for (let i = 0; i < SERVER_START_POLLS; i += 1) {
      servers = (await host.call('servers/list', undefined, requestMethods['servers/list'].result))
        .servers;
      if (servers.every((s) => s.status.state !== 'starting')) break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    for (const s of servers) print(`  ${s.name.padEnd(8)} ${describeServer(s)}`);

    const listing = await host.call('tools/list', undefined, requestMethods['tools/list'].result);
    const demo = await host.call(
      'tools/list',
      { profile: DEMO_PROFILE_ID },
      requestMethods['tools/list'].result,
    );
    print(`\n${table(toolRows(listing.tools, demo.tools))}\n`);
    const perServer = Object.entries(listing.tokens.byServer)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ');
    print(
      `${listing.tools.length} tools cost about ${listing.tokens.total} tokens on every model turn (${perServer}).`,
    );
    const welcomeUrl = pathToFileURL(layout.welcomeFile).href;
    const resolved = await host.call(
      'profiles/resolve',
      { url: welcomeUrl },
      requestMethods['profiles/resolve'].result,
    );
    const budget = demo.budget === undefined ? '' : ` of its ${demo.budget.limit}-token budget`;
    print(
      `The Demo profile (on ${resolved.matchedPattern ?? 'no page'}) offers ${demo.tools.length} of them, ${demo.tokens.total} tokens${budget}.`,
    );

    // One call through the approval flow, approved as the extension does after the click.
    const ask = await host
      .request('tools/call', { name: 'files__list_allowed_directories', arguments: {} })
      .catch((error: unknown) => error);
    const approval = approvalOf(ask);
    const approved = await host.request('tools/call', {
      name: 'files__list_allowed_directories',
      arguments: {},
      ...(approval === undefined ? {} : { approval }),
    });
    const askOk = approval !== undefined && JSON.stringify(approved).includes('demo-files');
    print(
      `Relay check: files__list_allowed_directories ${askOk ? 'asked for approval, then answered' : 'FAILED'}.`,
    );
    // The Demo profile allows listing its folder: no approval needed.
    const listed = await host
      .request('tools/call', {
        name: 'files__list_directory',
        arguments: { path: layout.files },
        profile: DEMO_PROFILE_ID,
      })
      .catch((error: unknown) => error);
    const allowOk = !(listed instanceof Error) && JSON.stringify(listed).includes('welcome.md');
    print(
      `Relay check: files__list_directory in the Demo profile ${allowOk ? 'ran without a prompt' : `FAILED${listed instanceof Error ? `: ${listed.message}` : ''}`}.`,
    );

    const running = servers.filter((s) => s.status.state === 'running').length;
    return (
      askOk &&
      allowOk &&
      resolved.profile.id === DEMO_PROFILE_ID &&
      running === servers.length &&
      listing.tools.length > 0
    );
  } finally {
    await host.close();
  }
}

function describeServer(server: ServerSummary): string {
  const state = server.status;
  switch (state.state) {
    case 'running':
      return `running, handshake ${Math.round(state.handshakeMs)} ms, ${server.toolCount} tools`;
    case 'failed':
      return `failed: ${state.message}`;
    case 'needs-approval':
      return `waiting for approval: node dist/host/switchyard.cjs trust ${server.name}`;
    case 'crashed':
      return `crashed, restart ${state.restarts + 1} in ${Math.round(state.retryInMs)} ms`;
    case 'starting':
    case 'stopped':
      return state.state;
  }
}

/** TOOL, its policy in the default profile, in the Demo profile (or hidden there), its tokens. */
export function toolRows(all: readonly ExposedTool[], demo: readonly ExposedTool[]): string[][] {
  const inDemo = new Map(demo.map((tool) => [tool.name, tool.policy]));
  return [
    ['TOOL', 'DEFAULT', 'DEMO', 'TOKENS'],
    ...all.map((tool) => [
      tool.name,
      tool.policy,
      inDemo.get(tool.name) ?? 'hidden',
      String(tool.tokens),
    ]),
  ];
}

function approvalOf(error: unknown): { requestId: string; nonce: string } | undefined {
  if (!(error instanceof HostRpcError)) return undefined;
  const data = z.object({ approval: ApprovalTokenSchema }).safeParse(error.error.data);
  return data.success ? data.data.approval : undefined;
}
