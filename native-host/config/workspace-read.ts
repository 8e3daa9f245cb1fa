import fs from 'node:fs';
import { MAX_CONFIG_FILE_BYTES } from './load';
import { readHandleBounded } from '../shared/bounded-read';
import type { ReadConfigFile } from './load';
import { errnoCode } from '../shared/errno';

/**
 * Reading a workspace file: bounded, refusing what is not a regular file, decoded as UTF-8. A
 * repository controls these paths, so nothing here may block, read without limit, or throw.
 */

/** Thrown by readWorkspaceFile for a FIFO, device, socket or folder. */
export class NotARegularFileError extends Error {
  override readonly name = 'NotARegularFileError';
}

/**
 * Reads at most `maxBytes + 1` bytes of `file`, which must be a regular file (a symlink to one is
 * followed). A repository can commit `.mcp.json` as a symlink to `/dev/stdin` (the host's stdin is
 * the browser's wire) or to a FIFO that blocks forever: the file is opened non-blocking and checked
 * with fstat before a byte is read. Throws NotARegularFileError, or the fs error (code ENOENT...).
 */
export async function readWorkspaceFile(
  file: string,
  maxBytes: number = MAX_CONFIG_FILE_BYTES,
): Promise<Uint8Array> {
  const nonBlocking = process.platform === 'win32' ? 0 : fs.constants.O_NONBLOCK;
  const handle = await fs.promises.open(file, fs.constants.O_RDONLY | nonBlocking);
  try {
    if (!(await handle.stat()).isFile()) throw new NotARegularFileError(file);
    return await readHandleBounded(handle, maxBytes);
  } finally {
    await handle.close();
  }
}

/** A workspace file as read: absent (contributes nothing silently), unusable (a warning says
 * why), or text to parse, BOM removed. */
export type WorkspaceText =
  | { readonly kind: 'missing' }
  | { readonly kind: 'unusable'; readonly detail: string }
  | { readonly kind: 'text'; readonly body: string };

/** Reads `file` with `readFile` and decodes it. Never rejects for a file's content or for an
 * error `readFile` throws. */
export async function readWorkspaceText(
  file: string,
  readFile: ReadConfigFile,
): Promise<WorkspaceText> {
  const unusable = (detail: string): WorkspaceText => ({ kind: 'unusable', detail });
  let data: Uint8Array | string;
  try {
    data = await readFile(file);
  } catch (error) {
    if (error instanceof NotARegularFileError) {
      return unusable(
        'this is not a regular file (a folder, pipe or device); replace it with a JSON file',
      );
    }
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return unusable(`cannot read the file (${code ?? 'unknown error'})`);
  }
  const text = decode(data);
  if (!text.ok) return unusable(text.detail);
  const body = text.value.startsWith('\uFEFF') ? text.value.slice(1) : text.value;
  if (body.length > MAX_CONFIG_FILE_BYTES) {
    return unusable(`the file is larger than ${MAX_CONFIG_FILE_BYTES} bytes`);
  }
  if (body.trim() === '') return unusable('the file is empty');
  return { kind: 'text', body };
}

/** The text of a file as read: a string is taken as is (a test's reader), bytes must be UTF-8. */
function decode(
  bytes: Uint8Array | string,
): { ok: true; value: string } | { ok: false; detail: string } {
  if (typeof bytes === 'string') return { ok: true, value: bytes };
  if (bytes.length > MAX_CONFIG_FILE_BYTES) {
    return { ok: false, detail: `the file is larger than ${MAX_CONFIG_FILE_BYTES} bytes` };
  }
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return { ok: false, detail: 'the file is saved as UTF-16: save it as UTF-8' };
  }
  try {
    return {
      ok: true,
      value: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes),
    };
  } catch {
    return { ok: false, detail: 'the file is not valid UTF-8' };
  }
}
