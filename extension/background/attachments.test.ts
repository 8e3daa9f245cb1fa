import { describe, expect, it } from 'vitest';
import { unwrapUntrusted } from '../../protocol/untrusted/block';
import { MAX_ATTACHMENT_CHARS, attachmentOf, userModelText } from './attachments';

const REF = { server: 'wiki', uri: 'wiki://onboarding', name: 'Onboarding' };
const random = (size: number) => new Uint8Array(size).fill(7);

describe('attachments', () => {
  it('wraps a text resource as untrusted data naming its server and address', () => {
    const attachment = attachmentOf(
      REF,
      [{ uri: REF.uri, mimeType: 'text/markdown', text: '# Hi' }],
      random,
    );
    expect(attachment).toMatchObject({ kind: 'text', mimeType: 'text/markdown', bytes: 4 });
    const block = unwrapUntrusted(attachment.content);
    expect(block?.server).toBe('wiki');
    expect(block?.tool).toBe('resource');
    expect(block?.payload).toBe(
      '[resource wiki://onboarding from wiki, attached by the user]\n# Hi',
    );
  });

  it('describes a binary resource instead of sending it', () => {
    const attachment = attachmentOf(
      REF,
      [{ uri: REF.uri, mimeType: 'image/png', blob: 'A'.repeat(4000) }],
      random,
    );
    expect(attachment.kind).toBe('binary');
    expect(unwrapUntrusted(attachment.content)?.payload).toContain(
      '[binary resource wiki://onboarding (image/png, 3 KB) not shown to the model]',
    );
    expect(attachment.content).not.toContain('AAAA');
  });

  it('caps a long text with the visible marker', () => {
    const attachment = attachmentOf(
      REF,
      [{ uri: REF.uri, text: 'x'.repeat(MAX_ATTACHMENT_CHARS + 10) }],
      random,
    );
    expect(attachment.content).toMatch(/truncated: showing 100,000 of 100,010 characters/);
  });

  it('adds attachments after the user’s words in what the model reads', () => {
    expect(userModelText({ role: 'user', content: 'hi' })).toBe('hi');
    const attachment = attachmentOf(REF, [{ uri: REF.uri, text: 'doc' }], random);
    expect(userModelText({ role: 'user', content: 'Summarize', attachments: [attachment] })).toBe(
      `Summarize\n\n${attachment.content}`,
    );
  });
});
