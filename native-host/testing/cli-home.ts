import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CliIo } from '../cli/io';

/**
 * A Switchyard home holding `config` as its config.json, and a CliIo on it that records what a
 * command prints, for in-process tests of the CLI.
 */
export function cliHome(config: string): {
  readonly home: string;
  readonly io: CliIo;
  readonly out: string[];
  readonly err: string[];
} {
  const home = mkdtempSync(path.join(tmpdir(), 'switchyard-cli-'));
  writeFileSync(path.join(home, 'config.json'), config);
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    env: { SWITCHYARD_HOME: home },
    platform: process.platform,
  };
  return { home, io, out, err };
}
