import { MAX_IMAGE_EDGE_PX, type ImageMimeType } from '../messaging/images';

/**
 * An image's width and height in pixels, read from its header (issue 14: the context meter's
 * per-provider image estimate needs them). Pure and bounded: at most HEADER_SCAN_BYTES are
 * decoded; undefined when the header is not where the format puts it (the meter then uses a
 * fixed estimate). The formats: PNG (IHDR, RFC 2083 §4.1.1), GIF (logical screen descriptor),
 * JPEG (the first SOFn marker segment), WebP (VP8, VP8L or VP8X chunk).
 */

export interface ImageDimensions {
  readonly width: number;
  readonly height: number;
}

/** Bytes of the image decoded to look for its size (a JPEG's EXIF block may come first). */
export const HEADER_SCAN_BYTES = 65_536;

function decode(data: string): Uint8Array {
  const chars = Math.min(data.length, Math.ceil(HEADER_SCAN_BYTES / 3) * 4);
  let binary: string;
  try {
    binary = atob(data.slice(0, chars - (chars % 4)));
  } catch {
    return new Uint8Array();
  }
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function u16be(b: Uint8Array, at: number): number {
  return ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
}
function u16le(b: Uint8Array, at: number): number {
  return (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
}
function u24le(b: Uint8Array, at: number): number {
  return u16le(b, at) | ((b[at + 2] ?? 0) << 16);
}
function u32be(b: Uint8Array, at: number): number {
  return u16be(b, at) * 65_536 + u16be(b, at + 2);
}

function sized(width: number, height: number): ImageDimensions | undefined {
  const fits = (edge: number): boolean => edge > 0 && edge <= MAX_IMAGE_EDGE_PX;
  return fits(width) && fits(height) ? { width, height } : undefined;
}

function jpeg(b: Uint8Array): ImageDimensions | undefined {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC): precision, height, width.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return sized(u16be(b, at + 7), u16be(b, at + 5));
    }
    at += 2 + u16be(b, at + 2);
  }
  return undefined;
}

function webp(b: Uint8Array): ImageDimensions | undefined {
  const chunk = String.fromCharCode(b[12] ?? 0, b[13] ?? 0, b[14] ?? 0, b[15] ?? 0);
  switch (chunk) {
    case 'VP8 ':
      return sized(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
    case 'VP8L': {
      const bits = (b[21] ?? 0) | ((b[22] ?? 0) << 8) | ((b[23] ?? 0) << 16) | ((b[24] ?? 0) << 24);
      return sized((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
    }
    case 'VP8X':
      return sized(u24le(b, 24) + 1, u24le(b, 27) + 1);
    default:
      return undefined;
  }
}

/** The size the header of `data` (base64 of an image whose bytes say `mimeType`) declares. */
export function imageDimensions(
  data: string,
  mimeType: ImageMimeType,
): ImageDimensions | undefined {
  const b = decode(data);
  switch (mimeType) {
    case 'image/png':
      return b.length >= 24 ? sized(u32be(b, 16), u32be(b, 20)) : undefined;
    case 'image/gif':
      return b.length >= 10 ? sized(u16le(b, 6), u16le(b, 8)) : undefined;
    case 'image/jpeg':
      return jpeg(b);
    case 'image/webp':
      return b.length >= 30 ? webp(b) : undefined;
  }
}
