// `npm start`: the main job. Builds everything (npm does that first), prepares a demo
// configuration (the reference filesystem server on a demo folder, and the memory server),
// approves it as the user who ran this command, starts the real host the way a browser does
// (over native-messaging frames) and prints every namespaced tool with its token cost.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEV_EXTENSION_ID, chromiumOrigin } from '../protocol/identity';
import { requestMethods } from '../protocol/methods';
import type { ServerSummary } from '../protocol/index';
import { table } from '../native-host/cli/io';
import { z } from 'zod';
import { ApprovalTokenSchema } from '../protocol/tools';
import { FramesClient, HostRpcError } from '../bench/frames-client';

const root = path.resolve(import.meta.dirname, '..');
const bundle = path.join(root, 'dist/host/switchyard.cjs');
const demo = path.join(root, '.tmp');
const home = path.join(demo, 'demo-home');
const files = path.join(demo, 'demo-files');
const serverEntry = (name: string) =>
  path.join(root, 'node_modules/@modelcontextprotocol', name, 'dist/index.js');

function prepareDemo(): void {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  mkdirSync(files, { recursive: true });
  const readme = path.join(files, 'welcome.md');
  if (!existsSync(readme)) {
    writeFileSync(
      readme,
      '# Welcome to Switchyard\n\nThe agent can read and write the files in this folder through the filesystem server.\n',
    );
  }
  const config = {
    mcpServers: {
      files: { command: process.execPath, args: [serverEntry('server-filesystem'), files] },
      memory: {
        command: process.execPath,
        args: [serverEntry('server-memory')],
        env: { MEMORY_FILE_PATH: path.join(home, 'memory.jsonl') },
      },
    },
  };
  writeFileSync(path.join(home, 'config.json'), `${JSON.stringify(config, null, 2)}\n`, {
    mode: 0o600,
  });
}

function hasDisplay(): boolean {
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  return Boolean(process.env['DISPLAY'] ?? process.env['WAYLAND_DISPLAY']);
}

async function main(): Promise<number> {
  prepareDemo();
  const env = { ...process.env, SWITCHYARD_HOME: home };
  // You ran `npm start` to try these two servers: approving them is your decision, made here.
  execFileSync(process.execPath, [bundle, 'trust', '--all', '--yes'], { env, stdio: 'ignore' });

  console.log(`Switchyard self-check${hasDisplay() ? '' : ' (no display: headless)'}`);
  console.log(`  home:    ${home}`);
  console.log(`  files:   ${files}\n`);

  const host = FramesClient.spawn({ bundle, home, origin: chromiumOrigin(DEV_EXTENSION_ID) });
  try {
    const hello = await host.hello();
    console.log(`Host ${hello.host.version} speaks protocol ${hello.protocolVersion}.`);
    let servers: ServerSummary[] = [];
    for (let i = 0; i < 300; i += 1) {
      servers = (await host.call('servers/list', undefined, requestMethods['servers/list'].result))
        .servers;
      if (servers.every((s) => s.status.state !== 'starting')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const s of servers) {
      const state = s.status;
      const detail =
        state.state === 'running'
          ? `running, handshake ${Math.round(state.handshakeMs)} ms, ${s.toolCount} tools`
          : state.state === 'failed'
            ? `failed: ${state.message}`
            : state.state;
      console.log(`  ${s.name.padEnd(8)} ${detail}`);
    }
    const { tools, tokens } = await host.call(
      'tools/list',
      undefined,
      requestMethods['tools/list'].result,
    );
    const rows = [['TOOL', 'POLICY', 'TOKENS']];
    for (const tool of tools) rows.push([tool.name, tool.policy, String(tool.tokens)]);
    console.log(`\n${table(rows)}\n`);
    const perServer = Object.entries(tokens.byServer)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ');
    console.log(
      `${tools.length} tools cost about ${tokens.total} tokens on every model turn (${perServer}).`,
    );

    // One real call through the whole pipeline, approved as the extension would after a click.
    const ask = await host
      .request('tools/call', { name: 'files__list_allowed_directories', arguments: {} })
      .catch((error: unknown) => error);
    const approval = approvalOf(ask);
    const result = await host.request('tools/call', {
      name: 'files__list_allowed_directories',
      arguments: {},
      ...(approval ? { approval } : {}),
    });
    const ok = JSON.stringify(result).includes(path.basename(files));
    console.log(
      `Relay check: files__list_allowed_directories ${ok ? 'answered through the host' : 'FAILED'}.`,
    );

    const running = servers.filter((s) => s.status.state === 'running').length;
    const passed = ok && running === servers.length && tools.length > 0;
    console.log(`\nSelf-check ${passed ? 'passed' : 'FAILED'}.`);
    console.log(
      hasDisplay()
        ? '\nThe extension is built in dist/chrome-mv3 (Chrome, Edge, Brave, Chromium) and dist/firefox-mv3.\nLoad it unpacked from chrome://extensions (Developer mode -> Load unpacked).'
        : '\nTo use it from your browser: load dist/chrome-mv3 unpacked from chrome://extensions\n(Developer mode -> Load unpacked) on a machine with a display.',
    );
    return passed ? 0 : 1;
  } finally {
    await host.close();
  }
}

function approvalOf(error: unknown): { requestId: string; nonce: string } | undefined {
  if (!(error instanceof HostRpcError)) return undefined;
  const data = z.object({ approval: ApprovalTokenSchema }).safeParse(error.error.data);
  return data.success ? data.data.approval : undefined;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
