import { describe, expect, it } from 'vitest';
import { RingBuffer } from '../supervisor/ring-buffer';
import { stderrRedaction } from './launch-stdio';

// Dangerous direction: a secret a server prints on stderr reaching the log file, `switchyard
// logs` or a crash report in the clear. The buffer is fed exactly as a server's stderr feeds it.

const BODY = `MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7${'Q'.repeat(12)}`;

function kept(text: string, chunks = 1): string[] {
  const buffer = new RingBuffer({ maxLines: 1_000, transform: stderrRedaction() });
  const size = Math.ceil(text.length / chunks);
  const lines: string[] = [];
  for (let at = 0; at < text.length; at += size)
    lines.push(...buffer.write(text.slice(at, at + size)));
  lines.push(...buffer.end());
  expect(buffer.lines()).toEqual(lines);
  return lines;
}

describe('stderrRedaction', () => {
  it.each([1, 3, 17])('hides a PEM private key whose lines arrive apart (%i chunks)', (chunks) => {
    const lines = kept(
      `starting\n-----BEGIN PRIVATE KEY-----\n${BODY}\n${BODY}\n-----END PRIVATE KEY-----\nready\n`,
      chunks,
    );
    expect(lines.join('\n')).not.toContain(BODY);
    expect(lines).toEqual([
      'starting',
      '[REDACTED:private-key]',
      '[REDACTED:private-key]',
      '[REDACTED:private-key]',
      '[REDACTED:private-key]',
      'ready',
    ]);
  });

  it('stops hiding after 200 lines when the END never comes', () => {
    const lines = kept(`-----BEGIN RSA PRIVATE KEY-----\n${'x\n'.repeat(250)}`);
    expect(lines.filter((l) => l === '[REDACTED:private-key]')).toHaveLength(201);
    expect(lines.at(-1)).toBe('x');
  });

  it('still redacts a token within a line, and leaves a public certificate alone', () => {
    const token = `ghp_${'a1B2'.repeat(9)}`;
    expect(kept(`using ${token}\n-----BEGIN CERTIFICATE-----\nMIIB\n`)).toEqual([
      'using [REDACTED:github]',
      '-----BEGIN CERTIFICATE-----',
      'MIIB',
    ]);
  });
});
