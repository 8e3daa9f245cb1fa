import { describe, expect, test } from 'vitest';
import { MAX_COMMAND_OUTPUT_BYTES, firstLine, runCommand } from './run-command';

const node = process.execPath;
const env = { PATH: process.env['PATH'] ?? '' };

describe('runCommand', () => {
  test('passes stdin and returns code, stdout and stderr', async () => {
    const result = await runCommand({
      command: node,
      args: [
        '-e',
        'process.stdin.pipe(process.stdout); process.stderr.write("e"); process.exitCode = 3',
      ],
      stdin: 'value on stdin',
      env,
      timeoutMs: 10_000,
    });
    expect(result).toEqual({ code: 3, stdout: 'value on stdin', stderr: 'e' });
  });

  test('a child past its deadline is killed and the call fails', async () => {
    const started = Date.now();
    await expect(
      runCommand({
        command: node,
        args: ['-e', 'setInterval(() => {}, 1000)'],
        env,
        timeoutMs: 300,
      }),
    ).rejects.toThrow(/did not answer within 300 ms/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('a missing program is a clear error', async () => {
    await expect(
      runCommand({ command: '/nonexistent/secret-tool', args: [], env, timeoutMs: 1_000 }),
    ).rejects.toThrow(/could not run \/nonexistent\/secret-tool/);
  });

  test('unbounded output is cut off', async () => {
    await expect(
      runCommand({
        command: node,
        args: [
          '-e',
          `const b = Buffer.alloc(1 << 20, 97); (function w() { process.stdout.write(b, w); })()`,
        ],
        env,
        timeoutMs: 20_000,
      }),
    ).rejects.toThrow(`more than ${MAX_COMMAND_OUTPUT_BYTES} bytes`);
  });

  test.each([
    ['', ''],
    ['\n\n  oops  \nmore', 'oops'],
    ['a\u001b[31mred', 'a?[31mred'],
    ['x'.repeat(400), 'x'.repeat(300)],
  ])('firstLine(%j)', (text, line) => {
    expect(firstLine(text)).toBe(line);
  });
});
