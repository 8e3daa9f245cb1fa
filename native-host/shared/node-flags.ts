/**
 * Node/V8 flags the host is started with: by the installer's launcher (the browser runs the
 * launcher, which runs `node <flags> switchyard.cjs host`), by `npm start` and by the benchmark,
 * so what is measured is what runs.
 *
 * `--max-semi-space-size=2` (MiB) caps V8's young generation. Under relay load it otherwise grows
 * to its 32 MiB maximum and RSS never shrinks back: measured after 14,000 relayed calls, host RSS
 * 130 MiB by default and 87 MiB with a 4 MiB cap, at the same relay latency. On its own, 2 MiB
 * moved RSS by less than the noise (the young generation then promotes more into old space); with
 * the old generation's growth capped as well ({@link V8_RUNTIME_FLAGS}) it is worth about
 * 4 MiB more (decision 0034).
 *
 * `--optimize-for-size` was measured side by side (issue 15): RSS 78 MiB (peak 81) against 100-103
 * (peak 124-126), but about 30% more host CPU per call and 25% fewer calls/s with 32 in flight:
 * not used.
 */
export const HOST_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2'];

/**
 * Environment the POSIX launcher sets for the host (and the benchmark, so it measures what runs).
 *
 * `MALLOC_ARENA_MAX=2`: glibc gives threads that allocate at once arenas of their own, up to eight
 * per core, and the host has a dozen threads (V8's workers, libuv's pool); memory freed in one
 * arena is not reused by another, and each keeps its slack resident. Two arenas, measured side by
 * side on 2 cores (decision 0036): host RSS after 14,000 relayed calls 78.5-78.9 MiB against
 * 82.7-82.9, CPU per call within the noise; with 500 calls in flight 86-89 against 92 MiB at about
 * the same calls/s. One arena saved 2 MiB more but cost about 10% CPU per call. Only glibc reads
 * the variable: macOS, musl and Windows ignore it, so the Windows launcher does not set it. The
 * host's servers do not inherit it: they get their own minimal environment (design D5).
 */
export const HOST_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/** What the launcher for `platform` sets for the host: HOST_ENV, and nothing on Windows. */
export function hostEnvFor(platform: NodeJS.Platform): Readonly<Record<string, string>> {
  return platform === 'win32' ? {} : HOST_ENV;
}

/**
 * V8 lets the old generation grow to between 1.1x and 4x of what survived the last full GC,
 * depending on how fast it collects. A host's live heap is small (about 12-16 MiB) and flat, so
 * that slack is most of its RSS growth under load. Capped at 1.5x: after 12,000 relayed calls
 * about 82 MiB against 99-103 (peak 124-126) uncapped, and after a burst with 1,000 calls in
 * flight 98-100 MiB (peak 104-111) against 130-141 (peak 172-182). 1.1x saved no more and cost
 * more full collections under load (decision 0034).
 *
 * Set by the entry at run time (native-host/boot/entry.ts), not on the command line:
 * `--heap-growing-percent` is a V8 flag, not a Node option, and a Node whose V8 dropped it would
 * refuse to start with it there ("bad option"); at run time V8 only prints "unrecognized flag".
 * The entry sets it before it compiles the bundle, because V8's flags are part of what a code
 * cache is checked against: set later, every start would reject the cache the last one wrote.
 */
export const V8_RUNTIME_FLAGS: readonly string[] = ['--heap-growing-percent=50'];

export function applyV8RuntimeFlags(): void {
  const v8 = process.getBuiltinModule('node:v8');
  for (const flag of V8_RUNTIME_FLAGS) v8.setFlagsFromString(flag);
}
