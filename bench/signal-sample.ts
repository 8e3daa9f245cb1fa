import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const SAMPLE_TIMEOUT_MS = 10_000;
const SAMPLE_POLL_MS = 20;

/**
 * Asks a host started with a sampling hook (the heap probe's preload, the stage clock) for one
 * sample: SIGUSR2 to `pid`, then the next line the host appends to `file`. `what` names the
 * sample in the error when none comes within the timeout. Not on Windows (no SIGUSR2).
 */
export async function signalForLine(pid: number, file: string, what: string): Promise<string> {
  const before = readLines(file).length;
  process.kill(pid, 'SIGUSR2');
  const deadline = performance.now() + SAMPLE_TIMEOUT_MS;
  while (readLines(file).length === before) {
    if (performance.now() > deadline) throw new Error(`the host wrote no ${what}`);
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_POLL_MS));
  }
  return readLines(file)[before] ?? '';
}

function readLines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}
