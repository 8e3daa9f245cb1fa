import { describe, expect, it, test } from 'vitest';
import type { ChatMessage } from '../messaging/conversation';
import {
  MAX_CONVERSATION_IMAGES,
  MAX_IMAGE_BYTES,
  MAX_IMAGES_PER_MESSAGE,
  type ImagePart,
} from '../messaging/images';
import {
  boundImages,
  checkImage,
  checkImages,
  markUndecodable,
  sniffImageType,
} from './image-content';
import {
  JPEG_HEAD,
  SCRIPTED_SVG,
  TINY_GIF,
  TINY_PNG,
  TINY_WEBP,
  pngOfBytes,
  pngOfSize,
} from './testing/images';

/*
 * The image gate. Dangerous direction: passing on something that is not one of the four raster
 * types (an SVG can carry script; an unknown blob may be anything), or something over the caps
 * (a request the provider refuses, a store that overflows). A refused image must leave a line
 * saying why, never vanish silently.
 */

test.each([
  ['a PNG', TINY_PNG, 'image/png'],
  ['a GIF', TINY_GIF, 'image/gif'],
  ['a WebP', TINY_WEBP, 'image/webp'],
  ['a JPEG', JPEG_HEAD, 'image/jpeg'],
  ['an SVG', SCRIPTED_SVG, undefined],
  ['plain text', btoa('hello world!'), undefined],
])('the bytes of %s say %s', (_what, data, type) => {
  expect(sniffImageType(data)).toBe(type);
});

test.each([
  // declared, data, accepted type or the reason's words
  ['image/png', TINY_PNG, { type: 'image/png' }],
  ['IMAGE/PNG; charset=binary', TINY_PNG, { type: 'image/png' }],
  ['image/jpg', JPEG_HEAD, { type: 'image/jpeg' }],
  // A mislabelled raster image goes under the type its bytes say.
  ['image/jpeg', TINY_PNG, { type: 'image/png' }],
  ['image/svg+xml', SCRIPTED_SVG, { reason: 'only PNG, JPEG, GIF and WebP' }],
  ['image/png', SCRIPTED_SVG, { reason: 'its bytes are not' }],
  ['image/bmp', TINY_PNG, { reason: 'only PNG, JPEG, GIF and WebP' }],
  ['image/png', 'not base64!', { reason: 'not valid base64' }],
  ['image/png', TINY_PNG.slice(1), { reason: 'not valid base64' }],
  ['image/png', '', { reason: 'not valid base64' }],
  ['image/png', pngOfBytes(MAX_IMAGE_BYTES), { type: 'image/png' }],
  ['image/png', pngOfBytes(MAX_IMAGE_BYTES + 1), { reason: 'larger than the 1.0 MB limit' }],
  // A side past what models take: Anthropic refuses the whole request, on every later turn.
  ['image/png', pngOfSize(8_000, 10), { type: 'image/png' }],
  ['image/png', pngOfSize(8_001, 10), { reason: '8001 x 10 px, over the 8000 px a side' }],
  ['image/png', pngOfSize(10, 9_000), { reason: 'over the 8000 px a side' }],
] as const)('declared %s: %o', (mimeType, data, expected) => {
  const check = checkImage({ mimeType, data });
  if ('type' in expected) {
    expect(check).toMatchObject({ ok: true, image: { mimeType: expected.type, data } });
  } else {
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toContain(expected.reason);
  }
});

describe('checkImages', () => {
  it('numbers the accepted images and explains each refusal, in order', () => {
    const { images, lines } = checkImages([
      { mimeType: 'image/png', data: TINY_PNG },
      { mimeType: 'image/svg+xml', data: SCRIPTED_SVG },
      { mimeType: 'image/gif', data: TINY_GIF },
    ]);
    expect(images.map((i) => i.mimeType)).toEqual(['image/png', 'image/gif']);
    expect(lines).toEqual([
      '[image 1 (image/png, 70 bytes)]',
      '[image (image/svg+xml, 72 bytes) not passed on: only PNG, JPEG, GIF and WebP images are passed on]',
      '[image 2 (image/gif, 42 bytes)]',
    ]);
  });

  it(`keeps at most ${MAX_IMAGES_PER_MESSAGE} images and 2 MB per message`, () => {
    const many = checkImages(
      Array.from({ length: MAX_IMAGES_PER_MESSAGE + 1 }, () => ({
        mimeType: 'image/png',
        data: TINY_PNG,
      })),
    );
    expect(many.images).toHaveLength(MAX_IMAGES_PER_MESSAGE);
    expect(many.lines.at(-1)).toContain('more than 4 images at once');

    const big = pngOfBytes(900_000);
    const heavy = checkImages([1, 2, 3].map(() => ({ mimeType: 'image/png', data: big })));
    expect(heavy.images).toHaveLength(2);
    expect(heavy.lines[2]).toContain('over the 2.0 MB of images one message may carry');
  });
});

describe('markUndecodable', () => {
  it('asks the decoder only about images the gate accepts, and marks those it refuses', async () => {
    const asked: string[] = [];
    const candidates = [
      { mimeType: 'image/png', data: TINY_PNG },
      { mimeType: 'image/png', data: SCRIPTED_SVG },
      { mimeType: 'image/gif', data: TINY_GIF },
    ];
    const marked = await markUndecodable(candidates, (image) => {
      asked.push(image.mimeType);
      return Promise.resolve(image.mimeType !== 'image/gif');
    });
    expect(asked).toEqual(['image/png', 'image/gif']);
    expect(marked.map((c) => c.undecodable)).toEqual([undefined, undefined, true]);
    expect(checkImages(marked).lines).toEqual([
      '[image 1 (image/png, 70 bytes)]',
      '[image (image/png, 72 bytes) not passed on: its bytes are not a PNG, JPEG, GIF or WebP image]',
      '[image (image/gif, 42 bytes) not passed on: it starts like a GIF image but does not decode as one]',
    ]);
  });

  it('without a decoder, leaves the candidates as they are', async () => {
    const candidates = [{ mimeType: 'image/png', data: TINY_PNG }];
    expect(await markUndecodable(candidates, undefined)).toEqual(candidates);
  });
});

describe('boundImages', () => {
  const image = (bytes: number): ImagePart => ({ mimeType: 'image/png', bytes, data: 'AAAA' });
  const transcript = (): ChatMessage[] => [
    { role: 'user', content: 'look', images: [image(300)] },
    { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'shot', arguments: {} }] },
    {
      role: 'tool',
      results: [
        {
          type: 'tool-result',
          callId: 'c1',
          name: 'shot',
          status: 'ok',
          content: 'x',
          images: [image(400), image(500)],
        },
      ],
    },
  ];

  it('returns the same transcript when everything fits', () => {
    const messages = transcript();
    expect(boundImages(messages, 1_200)).toBe(messages);
  });

  it(`keeps the pixels of the newest ${String(MAX_CONVERSATION_IMAGES)} images at most, however small`, () => {
    // A server that answers every call with 4 tiny images: 30 calls would be 120 in a request.
    const messages: ChatMessage[] = Array.from({ length: 30 }, (_, i) => ({
      role: 'user',
      content: `shot ${String(i)}`,
      images: [image(10), image(10), image(10), image(10)],
    }));
    const bounded = boundImages(messages);
    const withPixels = bounded.flatMap((m) =>
      m.role === 'user' ? (m.images ?? []).filter((i) => i.data !== undefined) : [],
    );
    expect(withPixels).toHaveLength(MAX_CONVERSATION_IMAGES);
    // The newest are the ones kept.
    expect(bounded.at(-1)).toMatchObject({ images: [{ data: 'AAAA' }, {}, {}, {}] });
    expect(bounded[0]).toMatchObject({ images: [{ bytes: 10 }, {}, {}, {}] });
    expect(bounded[0]?.role === 'user' && bounded[0].images?.[0]?.data).toBeUndefined();
  });

  it('drops the pixels of the oldest images first, keeping their descriptions', () => {
    const bounded = boundImages(transcript(), 1_000);
    const kept = (m: ChatMessage | undefined): (string | undefined)[] => {
      if (m?.role === 'user') return (m.images ?? []).map((i) => i.data);
      if (m?.role === 'tool') return m.results.flatMap((r) => (r.images ?? []).map((i) => i.data));
      return [];
    };
    // Newest first: 500 and 400 fit in 1,000; the user's 300 does not.
    expect(kept(bounded[2])).toEqual(['AAAA', 'AAAA']);
    expect(kept(bounded[0])).toEqual([undefined]);
    expect(bounded[0]).toMatchObject({ images: [{ mimeType: 'image/png', bytes: 300 }] });
  });
});
