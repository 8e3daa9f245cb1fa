import type { Prompt, PromptMessage } from '../../../protocol/resources';
import type { AttachmentRef } from '../../messaging/conversation';
import { matchesEvery } from './context-picker';

/**
 * What a server's prompt (issue 12) becomes in the composer: its text, for the user to read and
 * edit before sending, and its embedded resources as attachments (read through the host when the
 * message is sent, like a picked resource). Pure, tested without a DOM.
 */

export interface PromptUse {
  readonly text: string;
  readonly attachments: AttachmentRef[];
  /** Blocks that are neither text nor a resource (images, audio): described in the preview only. */
  readonly omitted: number;
}

export function promptUse(server: string, messages: readonly PromptMessage[]): PromptUse {
  const texts: string[] = [];
  const attachments: AttachmentRef[] = [];
  let omitted = 0;
  const roles = new Set(messages.map((m) => m.role));
  for (const { role, content } of messages) {
    switch (content.type) {
      case 'text':
        // One voice reads as the user's own words; a prompt that scripts both sides says which.
        texts.push(
          roles.size > 1
            ? `${role === 'user' ? 'User' : 'Assistant'}: ${content.text}`
            : content.text,
        );
        break;
      case 'resource':
      case 'resource_link': {
        const uri = content.type === 'resource' ? content.resource.uri : content.uri;
        const name = content.type === 'resource_link' ? content.name : uri;
        if (!attachments.some((a) => a.uri === uri)) attachments.push({ server, uri, name });
        break;
      }
      case 'image':
      case 'audio':
        omitted += 1;
        break;
    }
  }
  return { text: texts.join('\n\n'), attachments, omitted };
}

/** The prompts matching `query` (every word, against server, name, title, description). */
export function filterPrompts(prompts: readonly Prompt[], query: string): Prompt[] {
  return prompts
    .filter((p) => matchesEvery([`${p.server}:${p.name}`, p.title, p.description], query))
    .sort((a, b) => a.server.localeCompare(b.server) || a.name.localeCompare(b.name));
}

/** Which required arguments are still empty, by name. */
export function missingArguments(
  prompt: Prompt,
  values: Readonly<Record<string, string>>,
): string[] {
  return prompt.arguments
    .filter((arg) => arg.required === true && (values[arg.name] ?? '').trim() === '')
    .map((arg) => arg.name);
}

/** The filled-in arguments, empty optional ones left out. */
export function filledArguments(values: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim() !== ''));
}
