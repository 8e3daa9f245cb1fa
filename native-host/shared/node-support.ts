import type { HostRuntime } from '../../protocol/hello';

/**
 * Whether the Node that runs the host still gets fixes. The host parses what servers and the
 * browser send and holds the user's tokens, so a Node past its end of life, with no more
 * security fixes, is worth saying so: `switchyard install` and `switchyard doctor` do, and
 * `host/hello` tells the extension, which shows it. Pure.
 *
 * The dates are Node's own release schedule (https://github.com/nodejs/release#release-schedule):
 * the day each release line stops being maintained. Only the lines the host runs on (20.19 and
 * later) are listed; a line newer than the table is taken as maintained.
 */
export const NODE_END_OF_LIFE: Readonly<Record<number, string>> = {
  20: '2026-04-30',
  21: '2024-06-01',
  22: '2027-04-30',
  23: '2025-06-01',
  24: '2028-04-30',
  25: '2026-06-01',
  26: '2029-04-30',
};

export interface NodeSupport {
  /** As `process.versions.node` gives it: `20.20.2`. */
  readonly version: string;
  readonly major: number;
  /** The line's last maintained day (YYYY-MM-DD), or null for a line the table does not know. */
  readonly endOfLife: string | null;
  /** Whether `today` is after that day. */
  readonly ended: boolean;
  /** The oldest long-term-support line still maintained on `today`, to suggest; null if none. */
  readonly suggested: number | null;
}

/** `version` as `20.20.2` or `v20.20.2`; null when it is not a Node version. */
export function nodeSupport(version: string, today: Date): NodeSupport | null {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  if (match === null) return null;
  const major = Number(match[1]);
  const day = today.toISOString().slice(0, 10);
  const endOfLife = NODE_END_OF_LIFE[major] ?? null;
  const maintained = Object.entries(NODE_END_OF_LIFE)
    .map(([line, end]) => ({ line: Number(line), end }))
    // Even lines are the long-term-support ones; odd lines live six months.
    .filter(({ line, end }) => line % 2 === 0 && end >= day)
    .map(({ line }) => line);
  return {
    version: `${match[1]}.${match[2]}.${match[3]}`,
    major,
    endOfLife,
    ended: endOfLife !== null && day > endOfLife,
    suggested: maintained.length === 0 ? null : Math.min(...maintained),
  };
}

/**
 * What `host/hello` says about the Node that runs the host (protocol/hello.ts); null for no
 * version at all (`nodeSupport` could not read it).
 */
export function hostRuntime(support: NodeSupport | null): HostRuntime | null {
  if (support === null) return null;
  return {
    node: support.version,
    endOfLife: support.endOfLife,
    ended: support.ended,
    suggested: support.suggested,
  };
}

/**
 * What to tell the user about a Node past its end of life; null for a maintained one, or for no
 * version at all (`nodeSupport` could not read it).
 */
export function endOfLifeNote(support: NodeSupport | null): string | null {
  if (support === null || !support.ended || support.endOfLife === null) return null;
  const move =
    support.suggested === null
      ? 'Install a maintained Node'
      : `Install Node ${support.suggested} or later`;
  return `Node ${support.version} reached its end of life on ${support.endOfLife} and gets no more security fixes, yet it runs the host, which reads what servers send. ${move} and run 'switchyard install' again with it.`;
}
