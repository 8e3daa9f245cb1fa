import { z } from 'zod';

/**
 * Images in a conversation (issue 14): from tool results, the screenshot tool and the composer.
 * Every image here was checked by the worker (background/image-content.ts): one of four raster
 * types, confirmed by its first bytes, within the caps below. Pages show them as `data:` URLs in an
 * `<img>` (a raster image runs no script and fetches nothing); nothing is ever loaded from a URL.
 */

/** The only types passed on: raster formats every provider and browser decodes. No SVG (script). */
export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const ImageMimeTypeSchema = z.enum(IMAGE_MIME_TYPES);
export type ImageMimeType = z.infer<typeof ImageMimeTypeSchema>;

/** Largest image (decoded bytes) shown or sent; a larger one becomes a text stand-in. */
export const MAX_IMAGE_BYTES = 1_048_576;
/** Most images one tool result or one user message carries; the rest become stand-ins. */
export const MAX_IMAGES_PER_MESSAGE = 4;
/** Most image bytes one tool result or one user message carries. */
export const MAX_MESSAGE_IMAGE_BYTES = 2 * 1_048_576;
/**
 * Most image bytes a conversation keeps (newest first), which is also what one model request
 * carries: an older image beyond it keeps its description and loses its pixels, in memory, in
 * storage and in later requests alike.
 */
export const MAX_CONVERSATION_IMAGE_BYTES = 4 * 1_048_576;
/**
 * Most images a conversation keeps with their pixels (newest first), and so one request carries,
 * by count as the bytes above: providers refuse a request with too many (Anthropic: 100, and past
 * 20 each must be at most 2,000 px a side), and a refused request would fail every later turn of
 * the conversation, as the images are sent again each time.
 */
export const MAX_CONVERSATION_IMAGES = 20;
/**
 * Longest side an image may have to be passed on (Anthropic refuses a larger one outright; the
 * others scale it down). Known from its header; an image whose header says nothing is passed on.
 */
export const MAX_SENT_IMAGE_EDGE_PX = 8_000;

/** base64 characters of MAX_IMAGE_BYTES. */
const MAX_IMAGE_BASE64_CHARS = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;
const BASE64_PATTERN = /^[A-Za-z0-9+/]*={0,2}$/;

/** Largest width or height an image may declare to be recorded (beyond: its size is unknown). */
export const MAX_IMAGE_EDGE_PX = 1_000_000;

export const ImagePartSchema = z.object({
  mimeType: ImageMimeTypeSchema,
  /** Decoded size. */
  bytes: z.number().int().nonnegative().max(MAX_IMAGE_BYTES),
  /** base64, absent once the image is no longer kept (MAX_CONVERSATION_IMAGE_BYTES). */
  data: z.string().max(MAX_IMAGE_BASE64_CHARS).regex(BASE64_PATTERN).optional(),
  /** A file name the user attached it as, or where it came from ("screenshot of tab 3"). */
  label: z.string().max(256).optional(),
  /** Pixels, as its header declares them (absent when unreadable, and in older conversations). */
  width: z.number().int().positive().max(MAX_IMAGE_EDGE_PX).optional(),
  height: z.number().int().positive().max(MAX_IMAGE_EDGE_PX).optional(),
});
export type ImagePart = z.infer<typeof ImagePartSchema>;

export const ImageListSchema = z.array(ImagePartSchema).max(MAX_IMAGES_PER_MESSAGE).readonly();

/** "3 KB", "1.2 MB". */
export function describeBytes(bytes: number): string {
  if (bytes >= 1_048_576) return `${(bytes / 1_048_576).toFixed(1)} MB`;
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}

/** "image 1 (image/png, 3 KB)": how the model's text and the page refer to an image. */
export function imageLabel(image: Pick<ImagePart, 'mimeType' | 'bytes'>, index: number): string {
  return `image ${index + 1} (${image.mimeType}, ${describeBytes(image.bytes)})`;
}

/** The `data:` URL an `<img>` shows, or null when the image is no longer kept. */
export function imageDataUrl(image: ImagePart): string | null {
  return image.data === undefined ? null : `data:${image.mimeType};base64,${image.data}`;
}

/** Most characters of one attached text file the model is sent; the rest is cut with a marker. */
export const MAX_FILE_CHARS = 100_000;
/** Most files (images and text) one message carries from the composer. */
export const MAX_FILES_PER_MESSAGE = 8;

/** Files the composer sends with a message (issue 14), checked again by the worker. */
export const ComposerFileSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('image'),
    name: z.string().max(256),
    mimeType: z.string().max(128),
    /** base64 (at most a little over MAX_IMAGE_BYTES: the worker's gate has the last word). */
    data: z.string().max(MAX_IMAGE_BASE64_CHARS + 4),
  }),
  z.object({
    kind: z.literal('text'),
    name: z.string().max(256),
    text: z.string().max(MAX_FILE_CHARS * 4),
  }),
  /**
   * The page's selection, from "Add context" (issue 14): read by the worker (`page/selection`)
   * and wrapped by it again on send, as the browser_get_selection tool wraps its result.
   */
  z.object({
    kind: z.literal('selection'),
    /** The tab's title, as the chip shows it. */
    name: z.string().max(256),
    url: z.string().max(8_192),
    text: z.string().max(MAX_FILE_CHARS * 4),
  }),
]);
export type ComposerFile = z.infer<typeof ComposerFileSchema>;
