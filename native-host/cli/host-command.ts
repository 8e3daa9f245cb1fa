import type { PreparedCore } from '../host/core-prepare';
import type { PrestartedServers } from '../host/prestart';
import { loadSetup, type HostSetup } from '../host/setup';
import { FirstFrames } from '../rpc/first-frames';
import { checkCaller } from '../rpc/origin';
import { hostRuntime, nodeSupport } from '../shared/node-support';
import { HOST_VERSION } from '../shared/version';
import { hostStartContext } from './install-host';
import type { CliIo } from './io';

/**
 * `switchyard host <caller...>`: what the browser runs. stdout is the wire from here on, so
 * `console` is pointed at stderr before anything else can print (a dependency's stray
 * console.log would corrupt a frame).
 *
 * Two stages (decisions 0022, 0030). This first one reads and validates the configuration,
 * checks the caller, opens the browser's channel and answers its `host/hello` (first-frames.ts),
 * then checks each server's launch against the trust store and spawns the approved local servers
 * (loaded only now, so the hello does not wait for them); only then is the rest of the host (the
 * MCP client, the RPC layer: host-run.ts) loaded, while the servers boot, and its launcher adopts
 * the running processes. It imports nothing of the MCP client.
 */
export async function hostCommand(io: CliIo, args: readonly string[]): Promise<number> {
  // Not import(): it started Node's ES module loader (8 ms before the hello), and the bundle runs
  // from V8's code cache, where import() is not wired (decision 0033).
  const { Console } = process.getBuiltinModule('node:console');
  globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });

  // When the browser goes away, stderr breaks too (EPIPE). An unhandled error there would become
  // an uncaught exception whose report writes to stderr again: a loop that starves the event loop
  // and keeps the host spinning forever. Diagnostics are best effort; a broken stderr drops them.
  let stderrOpen = true;
  process.stderr.on('error', () => {
    stderrOpen = false;
  });
  const log = (line: string): void => {
    if (!stderrOpen) return;
    try {
      process.stderr.write(`${line}\n`);
    } catch {
      stderrOpen = false;
    }
  };

  // The install receipt: the login-shell PATH recorded by 'switchyard install' (a browser started
  // from the desktop gives a bare one) and the store extension ids the manifests allow.
  const context = await hostStartContext(io.env, io.platform);
  for (const warning of context.warnings) log(warning);
  io = { ...io, env: context.env };

  const setup = await loadSetup({ env: io.env, platform: io.platform });
  // A caller the host refuses gets nothing: no channel, no server, no second stage.
  const caller = checkCaller(args, context.allowedCallers);
  if (!caller.ok) {
    log(`switchyard host: ${caller.message}`);
    process.exit(2);
  }
  const frames = FirstFrames.open(process.stdin, process.stdout, {
    version: HOST_VERSION,
    home: setup.home ?? '',
    configWarnings: setup.warnings,
    runtime: hostRuntime(nodeSupport(process.versions.node, new Date())),
  });
  // Into the next poll phase of the event loop (reading starts on this turn, after its poll): a
  // hello already in the pipe is read and answered before the launch code loads and the servers
  // spawn. Nothing waits for a hello that has not come.
  for (let turn = 0; turn < 2; turn += 1) {
    await new Promise<void>((resolve) => {
      setImmediate(resolve);
    });
  }
  let early: Awaited<ReturnType<typeof prestart>> | undefined;
  try {
    early = await prestart(setup, io);
    const spawned = early.servers.names();
    if (spawned.length > 0)
      log(`switchyard host: spawned before the rest loaded: ${spawned.join(', ')}`);
    const { runFullHost } = await import('./host-run');
    return await runFullHost({ io, log, setup, frames, early });
  } catch (error) {
    // The open channel keeps the process alive: a start that fails from here on must end it (and
    // what it spawned), as a failed start ended before the channel opened this early.
    log(
      `switchyard host: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    const { killProcessGroupNow } = await import('../supervisor/process-transport');
    for (const pid of early?.servers.unclaimedPids() ?? []) killProcessGroupNow(pid);
    process.exit(1);
  }
}

async function prestart(
  setup: HostSetup,
  io: CliIo,
): Promise<{ prepared: PreparedCore; servers: PrestartedServers }> {
  const [{ prepareCore, stdioLaunchOptions }, { PrestartedServers }] = await Promise.all([
    import('../host/core-prepare'),
    import('../host/prestart'),
  ]);
  const prepared = await prepareCore(setup, { platform: io.platform });
  const snapshot = await prepared.trust.snapshot();
  const servers = PrestartedServers.start(
    setup.specs,
    snapshot,
    stdioLaunchOptions(prepared, io.env, io.platform),
  );
  return { prepared, servers };
}
