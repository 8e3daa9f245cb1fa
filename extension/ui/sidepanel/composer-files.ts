import {
  IMAGE_MIME_TYPES,
  MAX_FILE_CHARS,
  MAX_IMAGE_BYTES,
  describeBytes,
  type ComposerFile,
} from '../../messaging/images';
import type { PageSelection } from '../../messaging/ui-protocol';

/**
 * Files the user attaches, pastes or drops in the composer (issue 14): which ones it takes and how
 * it reads them. The page only sorts and reads; the worker checks every image by its bytes and
 * wraps every text file before the model sees either.
 */

/** Most bytes of a text file the composer reads (the model gets at most MAX_FILE_CHARS of it). */
export const MAX_TEXT_FILE_BYTES = MAX_FILE_CHARS * 4;

/** What the file picker offers: the four image types and common text formats. */
export const ATTACH_ACCEPT = [
  ...IMAGE_MIME_TYPES,
  'text/*',
  '.md,.json,.csv,.txt,.log,.yaml,.yml,.toml,.xml,.ts,.tsx,.js,.py,.rs,.go,.java,.c,.h,.sh',
].join(',');

const TEXT_NAME = /\.(md|json|csv|txt|log|ya?ml|toml|xml|tsx?|jsx?|py|rs|go|java|c|h|sh)$/i;

export type FileSort =
  { readonly kind: 'image' | 'text' } | { readonly kind: 'refused'; readonly reason: string };

/** Sorts a file by its declared type, name and size (the worker checks images' bytes again). */
export function sortFile(file: {
  readonly name: string;
  readonly type: string;
  readonly size: number;
}): FileSort {
  if ((IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) {
    return file.size > MAX_IMAGE_BYTES
      ? {
          kind: 'refused',
          reason: `${file.name} is larger than the ${describeBytes(MAX_IMAGE_BYTES)} an image may be.`,
        }
      : { kind: 'image' };
  }
  if (
    file.type.startsWith('text/') ||
    file.type === 'application/json' ||
    TEXT_NAME.test(file.name)
  ) {
    return file.size > MAX_TEXT_FILE_BYTES
      ? {
          kind: 'refused',
          reason: `${file.name} is larger than the ${describeBytes(MAX_TEXT_FILE_BYTES)} a text file may be.`,
        }
      : { kind: 'text' };
  }
  return {
    kind: 'refused',
    reason: `${file.name} cannot be attached: only PNG, JPEG, GIF and WebP images and text files can.`,
  };
}

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}

/** Reads a sorted file for `chat/send`. */
export async function readComposerFile(file: File, kind: 'image' | 'text'): Promise<ComposerFile> {
  const name = file.name.slice(0, 256) || (kind === 'image' ? 'pasted image' : 'file');
  if (kind === 'text') return { kind, name, text: await file.text() };
  return {
    kind,
    name,
    mimeType: file.type,
    data: base64Of(new Uint8Array(await file.arrayBuffer())),
  };
}

/**
 * "Add context" › the page's selection (issue 14): the worker's answer as a chip for the next
 * message, or what to tell the user. The worker wraps it as untrusted page text on send.
 */
export function selectionFile(
  answer: PageSelection,
): { readonly file: ComposerFile } | { readonly problem: string } {
  if (!answer.ok) return { problem: answer.problem };
  if (answer.text.trim() === '') {
    return { problem: 'Nothing is selected on the page: select some text there, then add it.' };
  }
  const title = answer.title.replace(/\s+/g, ' ').trim();
  return {
    file: {
      kind: 'selection',
      name: (title === '' ? answer.url : title).slice(0, 256),
      url: answer.url.slice(0, 8_192),
      text: answer.text.slice(0, MAX_FILE_CHARS * 4),
    },
  };
}
