import type { ImportClient } from '../../protocol/import';
import { ConfigError } from '../config/load';
import { NotARegularFileError, readWorkspaceFile } from '../config/workspace';
import { CLIENTS } from './clients';
import type { ConvertContext, ConvertResult } from './types';
import { errnoCode } from '../shared/errno';

/**
 * Reading one client's file and converting it. The file is opened the way workspace files are
 * (config/workspace.ts): non-blocking and checked to be a regular file before a byte is read, so
 * a symlink to a FIFO or to /dev/stdin cannot hang or feed the host; at most the client's byte
 * cap is read.
 */

/** Reads at most `maxBytes + 1` bytes of a regular file; throws NotARegularFileError or the fs
 * error (ENOENT...). */
export type ReadSourceFile = (file: string, maxBytes: number) => Promise<Uint8Array | string>;

export type SourceOutcome =
  | { readonly state: 'missing' }
  | { readonly state: 'error'; readonly error: ConfigError }
  | { readonly state: 'found'; readonly result: ConvertResult };

export async function readSource(
  client: ImportClient,
  file: string,
  context: ConvertContext,
  read: ReadSourceFile = readWorkspaceFile,
): Promise<SourceOutcome> {
  const spec = CLIENTS[client];
  let data: Uint8Array | string;
  try {
    data = await read(file, spec.maxBytes);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { state: 'missing' };
    return { state: 'error', error: new ConfigError({ file, detail: readFailure(error, code) }) };
  }
  try {
    const text = decode(data, file, spec.maxBytes);
    return { state: 'found', result: spec.convert(text, file, context) };
  } catch (error) {
    if (error instanceof ConfigError) return { state: 'error', error };
    throw error;
  }
}

function readFailure(error: unknown, code: string | undefined): string {
  if (error instanceof NotARegularFileError) {
    return 'this is not a regular file (a folder, a pipe or a device); nothing was read from it';
  }
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied: make the file readable by your user account';
    case 'EISDIR':
      return 'this is a folder, not a file';
    case undefined:
    default:
      return `cannot read the file (${code ?? 'unknown error'})`;
  }
}

/** The text of a file as read: a string is taken as is (a test's reader), bytes must be UTF-8. */
function decode(data: Uint8Array | string, file: string, maxBytes: number): string {
  if (data.length > maxBytes) {
    throw new ConfigError({
      file,
      detail: `the file is larger than ${maxBytes} bytes; nothing was imported from it`,
    });
  }
  if (typeof data === 'string') return data;
  if ((data[0] === 0xff && data[1] === 0xfe) || (data[0] === 0xfe && data[1] === 0xff)) {
    throw new ConfigError({ file, detail: 'the file is saved as UTF-16: save it as UTF-8' });
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(data);
  } catch (error) {
    throw new ConfigError({ file, detail: 'the file is not valid UTF-8', cause: error });
  }
}
