import type { ResourceContents } from '../../protocol/resources';
import type {
  Attachment,
  AttachmentRef,
  ChatMessage,
  FileAttachment,
} from '../messaging/conversation';
import { MAX_FILE_CHARS, type ComposerFile, type ImagePart } from '../messaging/images';
import { checkImages, markUndecodable, type ImageDecoder } from './image-content';
import type { HostClient } from './host-client';
import { DEFAULT_PAGE_CHARS } from './builtin-tools';
import { capText, sanitizePageText, wrapUntrusted, type RandomBytes } from './untrusted-text';

/**
 * Resources the user attached to a message (issue 12): read through the host (`resources/read`,
 * gated and capped there like a tool result), and wrapped here as untrusted data at the point
 * they become model input. Reading one is the user's own act: no approval. A binary resource is
 * described to the model with its type and size, not sent.
 */

/** Most characters of one attachment's text the model is sent; the rest is cut with a marker. */
export const MAX_ATTACHMENT_CHARS = 100_000;

function describeBytes(bytes: number): string {
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}

function base64Bytes(blob: string): number {
  return Math.floor((blob.length * 3) / 4);
}

/** One attachment from what `resources/read` returned. */
export function attachmentOf(
  ref: AttachmentRef,
  contents: readonly ResourceContents[],
  random?: RandomBytes,
): Attachment {
  const texts: string[] = [];
  let binaryBytes = 0;
  const binaries: string[] = [];
  for (const entry of contents) {
    if ('text' in entry) texts.push(entry.text);
    else {
      const bytes = base64Bytes(entry.blob);
      binaryBytes += bytes;
      binaries.push(
        `[binary resource ${entry.uri} (${entry.mimeType ?? 'unknown type'}, ${describeBytes(bytes)}) not shown to the model]`,
      );
    }
  }
  const text = capText(texts.join('\n\n'), MAX_ATTACHMENT_CHARS);
  const payload = [
    `[resource ${ref.uri} from ${ref.server}, attached by the user]`,
    text,
    ...binaries,
  ]
    .filter((part) => part !== '')
    .join('\n');
  const mimeType = contents[0]?.mimeType;
  return {
    server: ref.server,
    uri: ref.uri,
    name: ref.name,
    ...(mimeType === undefined ? {} : { mimeType }),
    kind: texts.length === 0 && binaries.length > 0 ? 'binary' : 'text',
    bytes: texts.reduce((sum, t) => sum + t.length, 0) + binaryBytes,
    content: wrapUntrusted(payload, { server: ref.server, tool: 'resource' }, random),
  };
}

/** Reads each attached resource through the host, under the active profile. */
export async function readAttachments(
  host: Pick<HostClient, 'request'>,
  refs: readonly AttachmentRef[],
  profile: string | undefined,
): Promise<Attachment[]> {
  return Promise.all(
    refs.map(async (ref) => {
      const { contents } = await host.request('resources/read', {
        server: ref.server,
        uri: ref.uri,
        ...(profile === undefined ? {} : { profile }),
      });
      return attachmentOf(ref, contents);
    }),
  );
}

/** What the model reads of a user message: the text, then each attachment's wrapped content. */
export function userModelText(message: Extract<ChatMessage, { role: 'user' }>): string {
  const extra = [...(message.attachments ?? []), ...(message.files ?? [])];
  if (extra.length === 0) return message.content;
  // An attachment alone (no words) is a message too: no empty paragraph before it.
  return [message.content, ...extra.map((a) => a.content)].filter((t) => t !== '').join('\n\n');
}

/** What the composer's files become: checked images, and text files wrapped for the model. */
export type ComposerAttachments =
  | {
      readonly ok: true;
      readonly images: ImagePart[];
      readonly files: FileAttachment[];
    }
  | { readonly ok: false; readonly problem: string };

/**
 * Checks the files the user attached or pasted (issue 14): images through the image gate (a
 * refused one fails the send with the reason, rather than going silently missing), text files
 * capped and wrapped like an attached resource: the user picked them, but someone else wrote them.
 */
export async function composerAttachments(
  files: readonly ComposerFile[],
  random?: RandomBytes,
  decode?: ImageDecoder,
): Promise<ComposerAttachments> {
  const candidates = files.flatMap((file) =>
    file.kind === 'image' ? [{ mimeType: file.mimeType, data: file.data, label: file.name }] : [],
  );
  const checked = checkImages(await markUndecodable(candidates, decode));
  if (checked.images.length < candidates.length) {
    const refused = checked.lines.filter((line) => !/^\[image \d+ /.test(line));
    return { ok: false, problem: `An attached image cannot be sent: ${refused.join(' ')}` };
  }
  return {
    ok: true,
    images: checked.images,
    files: files.flatMap((file): FileAttachment[] => {
      switch (file.kind) {
        case 'image':
          return [];
        case 'text':
          return [
            {
              name: file.name,
              chars: file.text.length,
              content: wrapUntrusted(
                `[file ${file.name}, attached by the user]\n${capText(file.text, MAX_FILE_CHARS)}`,
                { server: 'user', tool: 'file' },
                random,
              ),
            },
          ];
        case 'selection':
          return [selectionAttachment(file, random)];
      }
    }),
  };
}

/**
 * The page's selection the user added from "Add context" (issue 14): page-written text, so it is
 * sanitized, capped and wrapped exactly as the browser_get_selection tool's result is (source
 * `browser/get_selection`), with the page it came from.
 */
export function selectionAttachment(
  selection: Extract<ComposerFile, { kind: 'selection' }>,
  random?: RandomBytes,
): FileAttachment {
  const title = oneLine(selection.name);
  const url = sanitizePageText(selection.url).replace(/\s+/g, '');
  const text = capText(sanitizePageText(selection.text), DEFAULT_PAGE_CHARS);
  return {
    name: `Selection: ${title}`.slice(0, 256),
    chars: text.length,
    content: wrapUntrusted(
      `[selection on the page ${title} <${url}>, added by the user]\n${text}`,
      { server: 'browser', tool: 'get_selection' },
      random,
    ),
  };
}

function oneLine(text: string): string {
  return sanitizePageText(text).replace(/\s+/g, ' ').trim();
}
