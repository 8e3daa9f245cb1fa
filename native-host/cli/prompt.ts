import { createInterface } from 'node:readline/promises';

/**
 * Asks a yes/no question on the terminal. Without a terminal there is nobody to ask, so the answer
 * is no (fail closed); scripts pass `--yes` instead.
 */
export async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
