import fs from 'node:fs';

/**
 * Reads at most `maxBytes + 1` bytes of `path`: enough to tell a file over the cap from one at
 * it without ever buffering an unbounded file (or a device such as /dev/zero). The caller
 * compares the length with its cap and says what the cap is for.
 */
export async function readFileBounded(path: string, maxBytes: number): Promise<Uint8Array> {
  const handle = await fs.promises.open(path, 'r');
  try {
    return await readHandleBounded(handle, maxBytes);
  } finally {
    await handle.close();
  }
}

/** Reads at most `maxBytes + 1` bytes from an open file, in 64 KiB chunks joined once. */
export async function readHandleBounded(
  handle: fs.promises.FileHandle,
  maxBytes: number,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (total <= maxBytes) {
    const buffer = new Uint8Array(Math.min(65_536, maxBytes + 1 - total));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) break;
    chunks.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
  }
  return Buffer.concat(chunks);
}
