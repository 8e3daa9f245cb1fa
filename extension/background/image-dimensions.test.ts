import { expect, test } from 'vitest';
import type { ImageMimeType } from '../messaging/images';
import { imageDimensions } from './image-dimensions';
import { JPEG_HEAD, TINY_GIF, TINY_PNG, TINY_WEBP } from './testing/images';

/*
 * The sizes image headers declare (issue 14), for the context meter's image estimate. Dangerous
 * direction: a wrong size that looks right (the meter under-counts); an unreadable header must
 * be undefined, so the meter falls back to its fixed estimate.
 */

function b64(bytes: readonly number[]): string {
  return btoa(String.fromCharCode(...bytes));
}
const be16 = (n: number) => [(n >> 8) & 0xff, n & 0xff];
const be32 = (n: number) => [(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
const le16 = (n: number) => [n & 0xff, (n >> 8) & 0xff];
const le24 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff];
const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));

const png = (w: number, h: number) =>
  b64([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...be32(13),
    ...ascii('IHDR'),
    ...be32(w),
    ...be32(h),
    8,
    6,
    0,
    0,
    0,
  ]);
const gif = (w: number, h: number) => b64([...ascii('GIF89a'), ...le16(w), ...le16(h), 0, 0, 0]);
/** SOI, an APP0 segment of 16 bytes, a DQT of 4 (skipped), then SOF2 (progressive). */
const jpeg = (w: number, h: number) =>
  b64([
    0xff,
    0xd8,
    0xff,
    0xe0,
    ...be16(16),
    ...new Array<number>(14).fill(0),
    0xff,
    0xdb,
    ...be16(4),
    0,
    0,
    0xff,
    0xc2,
    ...be16(17),
    8,
    ...be16(h),
    ...be16(w),
    3,
    0,
    0,
    0,
  ]);
const webpX = (w: number, h: number) =>
  b64([
    ...ascii('RIFF'),
    0,
    0,
    0,
    0,
    ...ascii('WEBPVP8X'),
    ...le32(10),
    0,
    0,
    0,
    0,
    ...le24(w - 1),
    ...le24(h - 1),
  ]);
function le32(n: number) {
  return [...le16(n & 0xffff), ...le16(n >>> 16)];
}

test.each<[string, string, ImageMimeType, { width: number; height: number } | undefined]>([
  ['a real 1x1 PNG', TINY_PNG, 'image/png', { width: 1, height: 1 }],
  ['a real 1x1 GIF', TINY_GIF, 'image/gif', { width: 1, height: 1 }],
  ['a real 1x1 lossless WebP (VP8L)', TINY_WEBP, 'image/webp', { width: 1, height: 1 }],
  ['a 1920x1080 PNG header', png(1920, 1080), 'image/png', { width: 1920, height: 1080 }],
  ['a 640x480 GIF header', gif(640, 480), 'image/gif', { width: 640, height: 480 }],
  [
    'a progressive JPEG after APP0 and DQT',
    jpeg(1280, 720),
    'image/jpeg',
    { width: 1280, height: 720 },
  ],
  ['an extended WebP (VP8X)', webpX(3000, 2000), 'image/webp', { width: 3000, height: 2000 }],
  ['a JPEG cut before its frame header', JPEG_HEAD, 'image/jpeg', undefined],
  ['a PNG that declares 0 pixels', png(0, 10), 'image/png', undefined],
  ['a PNG that declares 2^31 pixels across', png(2 ** 31, 10), 'image/png', undefined],
  ['a truncated PNG', TINY_PNG.slice(0, 12), 'image/png', undefined],
])('%s', (_name, data, mimeType, expected) => {
  expect(imageDimensions(data, mimeType)).toEqual(expected);
});
