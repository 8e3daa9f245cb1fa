import type { ImagePart } from '../messaging/images';

/**
 * The production ImageDecoder: the browser's own decoders, through `createImageBitmap` (in a
 * service worker as in a page), over the image's bytes under the type they say. A rejection is
 * "does not decode"; a browser without `createImageBitmap` decodes nothing here and accepts, as
 * the gate did before it had a decoder.
 */
export async function decodeWithImageBitmap(image: ImagePart): Promise<boolean> {
  if (image.data === undefined) return true;
  if (typeof globalThis.createImageBitmap !== 'function') return true;
  const binary = atob(image.data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  try {
    const bitmap = await createImageBitmap(new Blob([bytes], { type: image.mimeType }));
    bitmap.close();
    return true;
  } catch {
    return false;
  }
}
