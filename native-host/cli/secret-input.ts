/**
 * Reads a secret's value for `switchyard secret set`: from the terminal without echo when stdin
 * is one, else all of stdin (a pipe or a file). Never from the argv, which `ps` and the shell's
 * history show.
 */

/** Longest value read; larger input is refused (an OAuth blob is a few KiB). */
export const MAX_SECRET_VALUE_BYTES = 64 * 1024;

/** What the command reads the value from; the process's stdin and stderr in production. */
export interface SecretInput {
  readonly isTTY: boolean;
  /** The whole of a non-terminal stdin, at most `maxBytes + 1` bytes. */
  readAll(maxBytes: number): Promise<Buffer>;
  /** One line typed at the terminal with echo off, after `prompt`; undefined if cancelled. */
  readHidden(prompt: string): Promise<string | undefined>;
}

/** The value piped in, with one trailing newline removed (`echo token | ...`). Pure. */
export function valueFromStdin(bytes: Buffer): string {
  return bytes.toString('utf8').replace(/\r?\n$/, '');
}

export const processInput: SecretInput = {
  get isTTY() {
    return process.stdin.isTTY;
  },
  readAll: async (maxBytes) => {
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of process.stdin) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      chunks.push(buffer);
      total += buffer.length;
      if (total > maxBytes) break;
    }
    return Buffer.concat(chunks);
  },
  readHidden: (prompt) => readHiddenLine(prompt),
};

/** Raw mode, no echo: Enter ends the line, Backspace deletes, Ctrl-C or Ctrl-D cancels. */
function readHiddenLine(prompt: string): Promise<string | undefined> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  return new Promise((resolve) => {
    let value = '';
    const finish = (result: string | undefined): void => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') {
          finish(value);
          return;
        }
        if (char === '\u0003' || (char === '\u0004' && value === '')) {
          finish(undefined);
          return;
        }
        if (char === '\u007f' || char === '\b') value = Array.from(value).slice(0, -1).join('');
        else if (char >= ' ') value += char;
      }
      if (Buffer.byteLength(value) > MAX_SECRET_VALUE_BYTES) finish(value);
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}
