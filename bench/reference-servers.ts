import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  EVERYTHING_SERVER,
  FILESYSTEM_SERVER,
  MEMORY_SERVER,
} from '../test/integration/host-harness';

/**
 * The three reference servers the bench runs, once as a host config and once as direct launch
 * specs for the SDK client, so both sides start exactly the same programs with `node <entry>`.
 */

export interface ServerLaunchSpec {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export interface ReferenceServers {
  readonly specs: readonly ServerLaunchSpec[];
  /**
   * Writes a fresh $SWITCHYARD_HOME with these servers in config.json (or none, to time the host
   * alone); removed by `dispose`.
   */
  makeHome(withServers?: boolean): string;
  /** Removes every temporary directory made for these servers and their homes. */
  dispose(): void;
}

/** The server whose `echo` tool the relay figures use. */
export const ECHO_SERVER = 'everything';
export const ECHO_TOOL = 'echo';

export function referenceServers(): ReferenceServers {
  const dirs: string[] = [];
  const tempDir = (prefix: string): string => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  const files = tempDir('switchyard-bench-fs-');
  writeFileSync(join(files, 'hello.txt'), 'hello from the bench\n');
  const memoryFile = join(tempDir('switchyard-bench-mem-'), 'memory.jsonl');

  const specs: ServerLaunchSpec[] = [
    { name: ECHO_SERVER, command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], env: {} },
    { name: 'files', command: process.execPath, args: [FILESYSTEM_SERVER, files], env: {} },
    {
      name: 'memory',
      command: process.execPath,
      args: [MEMORY_SERVER],
      env: { MEMORY_FILE_PATH: memoryFile },
    },
  ];
  const mcpServers = Object.fromEntries(
    specs.map((s) => [s.name, { command: s.command, args: s.args, env: s.env }]),
  );

  return {
    specs,
    makeHome: (withServers = true) => {
      const home = tempDir('switchyard-bench-home-');
      const config = { mcpServers: withServers ? mcpServers : {} };
      writeFileSync(join(home, 'config.json'), JSON.stringify(config, null, 2));
      return home;
    },
    dispose: () => {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
