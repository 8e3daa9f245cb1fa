import path from 'node:path';
import { errnoCode } from '../shared/errno';
import type { ShimRead } from '../shared/server-spec';
import { MAX_SHIM_BYTES, parseNpmShim } from './npm-shim';

/** `node` as a shim's own PATH lookup would find it: the first file, not followed further. */
export type NodeOnPath = { ok: true; path: string } | { ok: false; message: string };

export interface ShimIo {
  /** The shim's text; throws when it cannot be read. At most `MAX_SHIM_BYTES + 1` is enough. */
  readonly readFile: (p: string) => Promise<string>;
  readonly isFile: (p: string) => boolean | Promise<boolean>;
  readonly findNode: () => Promise<NodeOnPath>;
}

export type FollowedShim =
  | { ok: true; path: string; shim: ShimRead }
  | { ok: false; reason: 'not-found' | 'unsupported-shim'; message: string };

/**
 * What the batch file `file` (the `.cmd` or `.bat` a command resolved to on Windows) would start,
 * read from its text and never run (decision 0014): for an npm shim, node (node.exe beside the
 * shim, else the first `node` on PATH, as the shim itself picks) with the script first in the
 * args, or the `.exe` a shim starts directly. Every other batch file is refused with what to
 * write instead; so is a shim whose script is gone, or whose `node` on PATH is a batch file too
 * (followed no further: one level, no loops).
 */
export async function followShim(file: string, io: ShimIo): Promise<FollowedShim> {
  let text: string;
  try {
    text = await io.readFile(file);
  } catch (error) {
    const code = errnoCode(error) ?? 'unreadable';
    return unsupported(`'${file}' is a batch file that could not be read (${code}).`);
  }
  if (text.length > MAX_SHIM_BYTES) {
    return unsupported(
      `'${file}' is a batch file, and too large to be an npm shim; Switchyard never runs batch ` +
        'files (only cmd.exe can). Set "command" to the program it starts (an .exe, or an ' +
        'interpreter such as node) and put the script and its arguments in "args".',
    );
  }
  const plan = parseNpmShim(text, file);
  if (!plan.ok) return unsupported(plan.message);
  if (plan.runs === 'program') {
    if (!(await io.isFile(plan.program))) return gone(file, plan.program);
    return { ok: true, path: plan.program, shim: { file, kind: plan.kind, prefixArgs: [] } };
  }
  if (!(await io.isFile(plan.script))) return gone(file, plan.script);
  let node = plan.nodeBeside;
  if (!(await io.isFile(node))) {
    const found = await io.findNode();
    if (!found.ok) {
      return {
        ok: false,
        reason: 'not-found',
        message: `'${file}' is an npm shim that runs node from PATH (there is no node.exe beside it): ${found.message}`,
      };
    }
    const ext = path.win32.extname(found.path).toLowerCase();
    if (ext !== '.exe' && ext !== '.com') {
      return unsupported(
        `'${file}' is an npm shim that runs node from PATH, and the first node there is ` +
          `'${found.path}', which is not a program either. Set "command" to the absolute path ` +
          `of node.exe and put "${plan.script}" first in "args".`,
      );
    }
    node = found.path;
  }
  return { ok: true, path: node, shim: { file, kind: plan.kind, prefixArgs: plan.prefixArgs } };
}

function unsupported(message: string): FollowedShim {
  return { ok: false, reason: 'unsupported-shim', message };
}

function gone(file: string, target: string): FollowedShim {
  return {
    ok: false,
    reason: 'not-found',
    message:
      `'${file}' is an npm shim for '${target}', which does not exist (the package was removed ` +
      'or moved). Reinstall the package, or fix "command" for this server in config.json.',
  };
}
