/**
 * Small real images (and impostors) for image-gate tests, as base64: each begins with its
 * format's own signature, so the gate's byte check sees what a real one would show it.
 */

/** A 1x1 PNG. */
export const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
/** A 1x1 GIF. */
export const TINY_GIF = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
/** A 1x1 lossless WebP. */
export const TINY_WEBP = 'UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==';
/** The start of a JFIF JPEG (the gate reads only the signature). */
export const JPEG_HEAD = '/9j/4AAQSkZJRgABAQA=';
/** An SVG with a script in it: never passed on, whatever type it declares. */
export const SCRIPTED_SVG = btoa(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
);

/** base64 of `bytes` bytes of a PNG signature followed by zeros. */
export function pngOfBytes(bytes: number): string {
  const head = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const all = new Uint8Array(bytes);
  all.set(head.slice(0, bytes));
  let binary = '';
  for (const byte of all) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** base64 of a PNG's signature and IHDR saying `width` x `height` (the gate reads no further). */
export function pngOfSize(width: number, height: number): string {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
