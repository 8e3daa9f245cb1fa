import { imageDataUrl, imageLabel, type ImagePart } from '../../messaging/images';

/**
 * Images of a tool result or a user message (issue 14). Each is a `data:` URL of a raster image
 * the worker's gate checked by its bytes (PNG, JPEG, GIF, WebP): an `<img>` of one runs no script
 * and fetches nothing, and no `src` here is ever a remote URL. One whose pixels are no longer kept
 * is a line of text.
 */
export function ImageStrip({
  images,
  label,
}: {
  readonly images: readonly ImagePart[];
  readonly label: string;
}) {
  if (images.length === 0) return null;
  return (
    <ul className="sy-images" aria-label={label}>
      {images.map((image, index) => {
        const url = imageDataUrl(image);
        const name = image.label ?? imageLabel(image, index);
        return (
          <li key={index} className="sy-images__item">
            {url === null ? (
              <span className="sy-images__gone">{name}: no longer kept</span>
            ) : (
              <img
                className="sy-images__img"
                src={url}
                alt={name}
                title={name}
                referrerPolicy="no-referrer"
                decoding="async"
                draggable={false}
              />
            )}
          </li>
        );
      })}
    </ul>
  );
}
