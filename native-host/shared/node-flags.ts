/**
 * Node/V8 flags the host is started with: by the installer's launcher (the browser runs the
 * launcher, which runs `node <flags> switchyard.cjs host`), by `npm start` and by the benchmark,
 * so what is measured is what runs.
 *
 * `--max-semi-space-size=4` (MiB) caps V8's young generation. Under relay load it otherwise grows
 * to its 32 MiB maximum and RSS never shrinks back: measured after 14,000 relayed calls, host RSS
 * 130 MiB by default and 87 MiB with this flag, at the same relay latency (1.44x vs 1.51x of the
 * physical floor, within the run-to-run noise). Live heap after GC is ~10 MiB either way.
 *
 * `--optimize-for-size` was measured side by side (issue 15, two hosts each, 12,000 relayed calls):
 * RSS 77 MiB (peak 80) against 86-89 (peak 113-117), but more host CPU per relayed call (540 / 497
 * us beyond a bare hop against 509 / 404): not used. A smaller semi-space (1 or 2 MiB) moved RSS
 * by less than the noise, as the young generation then promotes more into old space.
 */
export const HOST_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];
