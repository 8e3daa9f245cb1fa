import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  EVERYTHING_SERVER,
  FILESYSTEM_SERVER,
  MEMORY_SERVER,
} from '../test/integration/host-harness';

/**
 * The eight servers the load figures run (the same mix as test/integration/load.test.ts): four
 * instances of server-everything, two of server-filesystem and two of server-memory, each under
 * its own name, with the one cheap read-only tool each load call makes.
 */

export interface LoadCall {
  /** The exposed name: `<server>__<tool>`. */
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

export interface LoadFleet {
  /** One call per server; load call i goes to `calls[i % calls.length]`. */
  readonly calls: readonly LoadCall[];
  /** Writes a fresh $SWITCHYARD_HOME with the eight servers in config.json. */
  makeHome(): string;
  /** Removes every temporary directory made for the fleet. */
  dispose(): void;
}

export const LOAD_FLEET_COUNTS = { everything: 4, filesystem: 2, memory: 2 } as const;

export function loadFleet(): LoadFleet {
  const dirs: string[] = [];
  const tempDir = (prefix: string): string => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  const node = process.execPath;
  const servers: Record<string, { command: string; args: string[]; env?: Record<string, string> }> =
    {};
  const calls: LoadCall[] = [];
  for (let n = 1; n <= LOAD_FLEET_COUNTS.everything; n += 1) {
    servers[`everything${n}`] = { command: node, args: [EVERYTHING_SERVER, 'stdio'] };
    calls.push({ name: `everything${n}__echo`, arguments: { message: 'x' } });
  }
  for (let n = 1; n <= LOAD_FLEET_COUNTS.filesystem; n += 1) {
    servers[`files${n}`] = {
      command: node,
      args: [FILESYSTEM_SERVER, tempDir('switchyard-load-fs-')],
    };
    calls.push({ name: `files${n}__list_allowed_directories`, arguments: {} });
  }
  for (let n = 1; n <= LOAD_FLEET_COUNTS.memory; n += 1) {
    const file = join(tempDir('switchyard-load-mem-'), 'memory.jsonl');
    servers[`memory${n}`] = {
      command: node,
      args: [MEMORY_SERVER],
      env: { MEMORY_FILE_PATH: file },
    };
    calls.push({ name: `memory${n}__read_graph`, arguments: {} });
  }
  return {
    calls,
    makeHome: () => {
      const home = tempDir('switchyard-load-home-');
      writeFileSync(join(home, 'config.json'), JSON.stringify({ mcpServers: servers }, null, 2));
      return home;
    },
    dispose: () => {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
