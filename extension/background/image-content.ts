import type { ChatMessage } from '../messaging/conversation';
import {
  IMAGE_MIME_TYPES,
  MAX_CONVERSATION_IMAGE_BYTES,
  MAX_CONVERSATION_IMAGES,
  MAX_IMAGE_BYTES,
  MAX_IMAGES_PER_MESSAGE,
  MAX_MESSAGE_IMAGE_BYTES,
  MAX_SENT_IMAGE_EDGE_PX,
  describeBytes,
  type ImageMimeType,
  type ImagePart,
} from '../messaging/images';
import { imageDimensions } from './image-dimensions';

/**
 * The gate every image passes before it is shown or sent (issue 14): a tool result's image
 * block, a screenshot, a file the user attached. It accepts four raster types, decided by the
 * image's first bytes (a declared type alone proves nothing: an SVG, which can carry script, may
 * call itself image/png), within a size per image and per message; whatever fails is replaced
 * by a one-line stand-in that says why. Pure, so the caps are tested by table.
 */

/** An image as it arrived: its declared type and its base64 data. */
export interface ImageCandidate {
  readonly mimeType: string;
  readonly data: string;
  readonly label?: string;
  /** Set by `markUndecodable` when the browser could not decode it. */
  readonly undecodable?: true;
}

/**
 * Whether an image the gate accepted decodes as the type its bytes say, with the browser's own
 * decoders (image-decode.ts); injected, so the gate stays pure and testable.
 */
export type ImageDecoder = (image: ImagePart) => Promise<boolean>;

export type ImageCheck =
  | { readonly ok: true; readonly image: ImagePart }
  | { readonly ok: false; readonly reason: string };

const BASE64_PATTERN = /^[A-Za-z0-9+/]*={0,2}$/;
const ALIASES: Readonly<Record<string, ImageMimeType>> = { 'image/jpg': 'image/jpeg' };

function declaredType(mimeType: string): ImageMimeType | undefined {
  const bare = mimeType.split(';')[0]?.trim().toLowerCase() ?? '';
  return ALIASES[bare] ?? IMAGE_MIME_TYPES.find((type) => type === bare);
}

/** Decoded bytes of well-formed base64. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return (data.length / 4) * 3 - padding;
}

function leadingBytes(data: string, count: number): number[] {
  const chars = Math.ceil(count / 3) * 4;
  const binary = atob(data.slice(0, chars));
  return Array.from(binary.slice(0, count), (c) => c.charCodeAt(0));
}

function ascii(bytes: readonly number[], at: number, text: string): boolean {
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
}

/** The type the first bytes say, if they say one of the four. */
export function sniffImageType(data: string): ImageMimeType | undefined {
  const b = leadingBytes(data, 12);
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (png.every((byte, i) => b[i] === byte)) return 'image/png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a')) return 'image/gif';
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) return 'image/webp';
  return undefined;
}

/** Checks one image; the accepted one carries the type its bytes say. */
export function checkImage(candidate: ImageCandidate): ImageCheck {
  const { data, label } = candidate;
  if (declaredType(candidate.mimeType) === undefined) {
    return { ok: false, reason: 'only PNG, JPEG, GIF and WebP images are passed on' };
  }
  if (data.length === 0 || data.length % 4 !== 0 || !BASE64_PATTERN.test(data)) {
    return { ok: false, reason: 'its data is not valid base64' };
  }
  const bytes = base64Bytes(data);
  if (bytes > MAX_IMAGE_BYTES) {
    return {
      ok: false,
      reason: `it is larger than the ${describeBytes(MAX_IMAGE_BYTES)} limit per image`,
    };
  }
  const mimeType = sniffImageType(data);
  if (mimeType === undefined) {
    return { ok: false, reason: 'its bytes are not a PNG, JPEG, GIF or WebP image' };
  }
  const size = imageDimensions(data, mimeType);
  if (size !== undefined && Math.max(size.width, size.height) > MAX_SENT_IMAGE_EDGE_PX) {
    return {
      ok: false,
      reason: `it is ${String(size.width)} x ${String(size.height)} px, over the ${String(MAX_SENT_IMAGE_EDGE_PX)} px a side models take`,
    };
  }
  if (candidate.undecodable === true) {
    return {
      ok: false,
      reason: `it starts like a ${mimeType.slice('image/'.length).toUpperCase()} image but does not decode as one`,
    };
  }
  return {
    ok: true,
    image: {
      mimeType,
      bytes,
      data,
      ...(label === undefined ? {} : { label: label.slice(0, 256) }),
      ...(size === undefined ? {} : { width: size.width, height: size.height }),
    },
  };
}

/**
 * The candidates, each the gate would accept run through `decode` first and marked when it does
 * not decode: a header that passes the byte checks with garbage after it makes the provider
 * refuse the request, and every later one while the image stays in the conversation. With no
 * decoder (tests of the gate alone), the candidates as they are.
 */
export async function markUndecodable(
  candidates: readonly ImageCandidate[],
  decode: ImageDecoder | undefined,
): Promise<ImageCandidate[]> {
  if (decode === undefined) return [...candidates];
  return Promise.all(
    candidates.map(async (candidate): Promise<ImageCandidate> => {
      const check = checkImage(candidate);
      if (!check.ok || (await decode(check.image))) return candidate;
      return { ...candidate, undecodable: true };
    }),
  );
}

/** One message's images: accepted ones in order, and a line for each candidate. */
export interface CheckedImages {
  readonly images: ImagePart[];
  /** Per candidate, in order: "[image 1 (image/png, 3 KB)]" or why it is not passed on. */
  readonly lines: string[];
}

/** Checks a message's images in order, under the per-message count and byte caps. */
export function checkImages(candidates: readonly ImageCandidate[]): CheckedImages {
  const images: ImagePart[] = [];
  const lines: string[] = [];
  let total = 0;
  for (const candidate of candidates) {
    const approx = Math.floor((candidate.data.length * 3) / 4);
    const what = `image (${candidate.mimeType.slice(0, 80)}, ${describeBytes(approx)})`;
    const check = checkImage(candidate);
    if (!check.ok) {
      lines.push(`[${what} not passed on: ${check.reason}]`);
      continue;
    }
    if (images.length >= MAX_IMAGES_PER_MESSAGE) {
      lines.push(`[${what} not passed on: more than ${MAX_IMAGES_PER_MESSAGE} images at once]`);
      continue;
    }
    if (total + check.image.bytes > MAX_MESSAGE_IMAGE_BYTES) {
      lines.push(
        `[${what} not passed on: over the ${describeBytes(MAX_MESSAGE_IMAGE_BYTES)} of images one message may carry]`,
      );
      continue;
    }
    total += check.image.bytes;
    images.push(check.image);
    lines.push(
      `[image ${images.length} (${check.image.mimeType}, ${describeBytes(check.image.bytes)})]`,
    );
  }
  return { images, lines };
}

function withoutData(images: readonly ImagePart[], keep: (image: ImagePart) => boolean) {
  return images.map((image) => {
    if (image.data === undefined || keep(image)) return image;
    const kept: ImagePart = { mimeType: image.mimeType, bytes: image.bytes };
    return image.label === undefined ? kept : { ...kept, label: image.label };
  });
}

/**
 * The conversation with only its newest images' pixels kept, up to `budget` bytes and `count`
 * images; older ones keep their description (the model is told they are no longer kept). Returns
 * the same array when nothing needed dropping.
 */
export function boundImages(
  messages: readonly ChatMessage[],
  budget = MAX_CONVERSATION_IMAGE_BYTES,
  count = MAX_CONVERSATION_IMAGES,
): readonly ChatMessage[] {
  const tally = { used: 0, kept: 0, dropped: 0 };
  const keep = (image: ImagePart): boolean => {
    if (tally.kept < count && tally.used + image.bytes <= budget) {
      tally.used += image.bytes;
      tally.kept += 1;
      return true;
    }
    tally.dropped += 1;
    return false;
  };
  const bounded: ChatMessage[] = [];
  for (const message of [...messages].reverse()) {
    switch (message.role) {
      case 'user':
        bounded.push(
          message.images === undefined
            ? message
            : { ...message, images: withoutData([...message.images].reverse(), keep).reverse() },
        );
        break;
      case 'tool':
        bounded.push({
          ...message,
          results: [...message.results]
            .reverse()
            .map((result) =>
              result.images === undefined
                ? result
                : { ...result, images: withoutData([...result.images].reverse(), keep).reverse() },
            )
            .reverse(),
        });
        break;
      case 'assistant':
        bounded.push(message);
        break;
    }
  }
  return tally.dropped > 0 ? bounded.reverse() : messages;
}
