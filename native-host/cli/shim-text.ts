import { formatCommandLine } from '../../protocol/argv';
import type { ServerSpec, ShimRead } from '../shared/server-spec';

/**
 * How the CLI tells the user that a command named an npm shim on Windows and what the host runs
 * instead (decision 0014): the shim file, who wrote it, and for npm's own npx.cmd/npm.cmd that the
 * npm beside it runs. Pure.
 */
export function describeShim(shim: ShimRead): string {
  switch (shim.kind) {
    case 'npm-cli':
      // The shim asks npm (by running it) for the global prefix and prefers an npm installed
      // there; the host runs nothing to find out.
      return (
        `read from ${shim.file} (npm's own shim; read, never run), as the npm beside it, not ` +
        'one installed in your global prefix'
      );
    case 'cmd-shim':
      return `read from ${shim.file} (the shim npm wrote for the package's bin; read, never run)`;
  }
}

/** One server's npm shim as doctor lists it: what was written, what runs, where it was read. */
export interface ShimNote {
  readonly server: string;
  readonly file: string;
  readonly kind: ShimRead['kind'];
  /** The argv that runs: node, the script, the entry's args. */
  readonly runs: readonly string[];
}

/** The servers whose command was an npm shim, with what runs instead, in config order. */
export function shimNotes(specs: readonly ServerSpec[]): ShimNote[] {
  return specs.flatMap((spec) =>
    spec.shim === null || spec.definition === null
      ? []
      : [
          {
            server: spec.name,
            file: spec.shim.file,
            kind: spec.shim.kind,
            runs: [spec.definition.executable, ...spec.definition.args],
          },
        ],
  );
}

/** The notes as doctor prints them; empty when no command was a shim. */
export function shimSection(specs: readonly ServerSpec[]): string {
  const lines = specs.flatMap((spec) => {
    if (spec.shim === null || spec.definition === null) return [];
    const written = formatCommandLine([spec.command, ...spec.args]);
    const runs = formatCommandLine([spec.definition.executable, ...spec.definition.args]);
    return [`  ${spec.name}: ${written}`, `    runs ${runs}`, `    ${describeShim(spec.shim)}`];
  });
  if (lines.length === 0) return '';
  return `Windows npm shims, read instead of run (Switchyard runs no batch file):\n${lines.join('\n')}\n`;
}
