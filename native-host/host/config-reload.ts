import { canonicalJson } from '../shared/canonical-json';
import { launchFingerprint } from '../trust/fingerprint';
import type { ServerSpec } from '../shared/server-spec';
import type { HostSetup } from './setup';
import { messageOf } from '../../protocol/guards';

/**
 * Live configuration reload: config.json changed (an editor, `switchyard add`, the host's own
 * write), so the running host moves to the new configuration without a new process, and without
 * loosening a gate: a new or changed launch goes through the launch-trust gate like any other
 * (design D6), a removed server stops, and an untouched one keeps running. A file that cannot be
 * used (mid-edit, deleted during a rename-on-save) keeps the last good configuration running.
 *
 * `planReload` is the pure diff; `ConfigReloader` serializes reloads and writes and keeps the last
 * good configuration; watching the file is config-watch.ts.
 */

/** What a reload does to each server, by name. Every name of both sides is in exactly one list. */
export interface ReloadPlan {
  /** New names: started through the launch gate (unless disabled). */
  readonly added: readonly string[];
  /** Names no longer configured: stopped and dropped. */
  readonly removed: readonly string[];
  /** What runs, or how it is run, changed: stopped, then through the launch gate again. */
  readonly replaced: readonly string[];
  /** Only the tool prefix, `disabled` or `apps` changed: the runtime is kept (stopped, if now
   * disabled; reconnected, if it is connected and its apps were turned on or off). A prefix a
   * workspace file wrote is in the definition, so its edit is `replaced`, not retuned. */
  readonly retuned: readonly string[];
  /** Identical: left running untouched. */
  readonly unchanged: readonly string[];
}

/**
 * Everything about a spec that decides what runs or what its consent card shows. The definition
 * counts by fingerprint, exactly as the gate compares it; timeouts count because the running
 * process was started with the old ones.
 */
function launchIdentity(spec: ServerSpec): string {
  return canonicalJson({
    command: spec.command,
    args: spec.args,
    env: spec.env,
    cwd: spec.cwd ?? null,
    handshakeTimeoutMs: spec.handshakeTimeoutMs,
    toolTimeoutMs: spec.toolTimeoutMs,
    provenance: spec.provenance,
    workspaceRoot: spec.workspaceRoot,
    scope: spec.scope,
    sourceFile: spec.sourceFile,
    ignoredTrustClaims: spec.ignoredTrustClaims,
    definition: spec.definition === null ? null : launchFingerprint(spec.definition),
    resolutionError: spec.resolutionError,
    resolvedCommand: spec.resolvedCommand,
  });
}

/** Pure: how to get from the running servers to `next`. */
export function planReload(current: Iterable<ServerSpec>, next: readonly ServerSpec[]): ReloadPlan {
  const before = new Map<string, ServerSpec>();
  for (const spec of current) before.set(spec.name, spec);
  const after = new Set(next.map((spec) => spec.name));
  const plan = {
    added: [] as string[],
    removed: [...before.keys()].filter((name) => !after.has(name)),
    replaced: [] as string[],
    retuned: [] as string[],
    unchanged: [] as string[],
  };
  for (const spec of next) {
    const old = before.get(spec.name);
    if (old === undefined) plan.added.push(spec.name);
    else if (launchIdentity(old) !== launchIdentity(spec)) plan.replaced.push(spec.name);
    else if (
      old.prefix !== spec.prefix ||
      old.disabled !== spec.disabled ||
      // Not what runs (the fingerprint never covers it), but declared when connecting.
      old.apps !== spec.apps
    ) {
      plan.retuned.push(spec.name);
    } else plan.unchanged.push(spec.name);
  }
  return plan;
}

/**
 * The specs to run after a reload: `next`, plus the running version of every server whose entry
 * is now invalid and was skipped (a half-finished edit of one entry must not stop that server;
 * its warning says what to fix). A server whose entry is gone, or that now names another
 * transport, is not carried over.
 */
export function carryOverSkipped(
  running: Iterable<ServerSpec>,
  next: readonly ServerSpec[],
  skipped: readonly string[],
): ServerSpec[] {
  const names = new Set(next.map((spec) => spec.name));
  const kept = [...running].filter((spec) => skipped.includes(spec.name) && !names.has(spec.name));
  return [...next, ...kept];
}

export interface ConfigReloaderOptions {
  /** The configuration the host started with. */
  readonly initial: HostSetup;
  /** Loads the configuration again (config.json and the workspace files it lists). */
  readonly load: () => Promise<HostSetup>;
  /** Whether config.json exists now: a file missing during an editor's save is not "no servers". */
  readonly configExists: () => Promise<boolean>;
  /** Moves the running host to `setup`; resolves when stops are done, `settled` when starts are. */
  readonly apply: (setup: HostSetup) => Promise<{ settled: Promise<void> }>;
  /** A line for the user (the host sends it as `notifications/log`). */
  readonly log: (level: 'info' | 'warning', message: string) => void;
}

const NOTHING_TO_SETTLE = { settled: Promise.resolve() };

/**
 * Reloads the configuration, one reload or write at a time (a write and the reload that follows
 * it are never interleaved with another reload). Requests that arrive while a reload waits to
 * start share it. Never throws: a configuration that cannot be used is reported and the last good
 * one keeps running.
 */
export class ConfigReloader {
  private readonly options: ConfigReloaderOptions;
  private good: HostSetup;
  /** Why the current file is not the configuration in force, when it is not. */
  private problem: string | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private waiting: Promise<{ settled: Promise<void> }> | undefined;

  constructor(options: ConfigReloaderOptions) {
    this.options = options;
    this.good = options.initial;
  }

  /** The configuration warnings in force (for `host/hello`), and why the file is not used. */
  warnings(): string[] {
    return this.problem === undefined
      ? [...this.good.warnings]
      : [...this.good.warnings, this.problem];
  }

  /** Reloads after whatever is in progress; resolves when stops are done (`settled`: starts). */
  reload(): Promise<{ settled: Promise<void> }> {
    this.waiting ??= this.enqueue(() => {
      this.waiting = undefined;
      return this.reloadNow();
    });
    return this.waiting;
  }

  /**
   * Runs `write` (a change to config.json or trust.json) with no reload in between, then reloads
   * so the host runs what was written.
   */
  afterWrite<T>(write: () => Promise<T>): Promise<{ value: T; settled: Promise<void> }> {
    return this.enqueue(async () => {
      const value = await write();
      const { settled } = await this.reloadNow();
      return { value, settled };
    });
  }

  /** Runs `task` (a write whose effect the caller applies itself) with no reload in between. */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    return this.enqueue(task);
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.chain.then(task, task);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async reloadNow(): Promise<{ settled: Promise<void> }> {
    const file = this.good.configFile ?? 'config.json';
    try {
      if (!(await this.options.configExists())) {
        this.report(
          `${file} is missing; the servers already loaded keep running. Restore the file, or restart the browser to run without it.`,
        );
        return NOTHING_TO_SETTLE;
      }
      const setup = await this.options.load();
      if (setup.configRejected) {
        this.report(
          `${setup.warnings.join('; ')} The last good configuration keeps running; fix the file and save it again.`,
        );
        return NOTHING_TO_SETTLE;
      }
      if (this.problem !== undefined) {
        this.problem = undefined;
        this.options.log('info', `${file} is valid again; reloaded it.`);
      }
      for (const warning of setup.warnings) {
        if (!this.good.warnings.includes(warning)) this.options.log('warning', warning);
      }
      this.good = setup;
      return await this.options.apply(setup);
    } catch (error) {
      this.report(
        `Reloading ${file} failed (${messageOf(error)}); the last good configuration keeps running.`,
      );
      return NOTHING_TO_SETTLE;
    }
  }

  /** Reports a problem once (an editor saving the same broken file twice says it once). */
  private report(problem: string): void {
    if (problem === this.problem) return;
    this.problem = problem;
    this.options.log('warning', problem);
  }
}
