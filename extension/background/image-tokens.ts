import type { ImagePart } from '../messaging/images';
import type { ProviderSettings } from '../messaging/provider';
import { imageRoute } from './providers/ai-sdk-messages';

/**
 * What an image costs in the context window (issue 14), estimated per provider from its own
 * published formula, so the context meter and the trim before a request count images as well as
 * text. An image the model is not sent (a text-only model, or an old image whose pixels are no
 * longer kept) costs only its stand-in line, counted with the text: 0 here.
 */

/** Whose formula applies: the provider's wire, or none when images are not sent. */
export type ImageTokenRule = 'anthropic' | 'openai' | 'none';

/**
 * Anthropic, "Vision: calculate image costs" (docs.anthropic.com/en/docs/build-with-claude/vision):
 * tokens = (width × height) / 750, after the image is scaled down (aspect kept) to a long edge of
 * at most 1568 px and at most about 1,600 tokens (≈1.15 megapixels).
 */
export const ANTHROPIC_PIXELS_PER_TOKEN = 750;
export const ANTHROPIC_MAX_EDGE_PX = 1_568;
export const ANTHROPIC_MAX_IMAGE_TOKENS = 1_600;

/**
 * OpenAI, "Images and vision: calculating costs" (platform.openai.com/docs/guides/images-vision),
 * GPT-4o / 4.1 at `detail: high`: fit within 2048 × 2048, scale down so the short side is at most
 * 768 px, then 170 tokens per 512 px tile plus 85. The SDK sends `detail: auto`, which the model
 * may serve at low detail (85 tokens): high detail is the upper bound, so the meter never
 * under-counts. OpenAI-compatible servers that take images are estimated the same way.
 */
export const OPENAI_MAX_EDGE_PX = 2_048;
export const OPENAI_SHORT_EDGE_PX = 768;
export const OPENAI_TILE_PX = 512;
export const OPENAI_TOKENS_PER_TILE = 170;
export const OPENAI_BASE_TOKENS = 85;

/**
 * When the header gave no size: what a 1024 × 1024 image costs on each (OpenAI: 4 tiles, 765;
 * Anthropic: the cap it scales every larger image down to, 1,600).
 */
export const UNKNOWN_SIZE_TOKENS: Readonly<Record<Exclude<ImageTokenRule, 'none'>, number>> = {
  anthropic: ANTHROPIC_MAX_IMAGE_TOKENS,
  openai: OPENAI_BASE_TOKENS + 4 * OPENAI_TOKENS_PER_TILE,
};

/** The rule for the provider in use (null: none set up, nothing is sent). */
export function imageTokenRule(settings: ProviderSettings | null): ImageTokenRule {
  if (settings === null || imageRoute(settings) === 'none') return 'none';
  return settings.kind === 'anthropic' ? 'anthropic' : 'openai';
}

function anthropicTokens(width: number, height: number): number {
  const scale = Math.min(
    1,
    ANTHROPIC_MAX_EDGE_PX / Math.max(width, height),
    Math.sqrt((ANTHROPIC_MAX_IMAGE_TOKENS * ANTHROPIC_PIXELS_PER_TOKEN) / (width * height)),
  );
  const pixels = Math.floor(width * scale) * Math.floor(height * scale);
  return Math.min(ANTHROPIC_MAX_IMAGE_TOKENS, Math.ceil(pixels / ANTHROPIC_PIXELS_PER_TOKEN));
}

function openaiTokens(width: number, height: number): number {
  const fit = Math.min(1, OPENAI_MAX_EDGE_PX / Math.max(width, height));
  let w = width * fit;
  let h = height * fit;
  const short = Math.min(w, h);
  if (short > OPENAI_SHORT_EDGE_PX) {
    w = (w * OPENAI_SHORT_EDGE_PX) / short;
    h = (h * OPENAI_SHORT_EDGE_PX) / short;
  }
  const tiles = Math.ceil(w / OPENAI_TILE_PX) * Math.ceil(h / OPENAI_TILE_PX);
  return OPENAI_BASE_TOKENS + OPENAI_TOKENS_PER_TILE * tiles;
}

/** The estimated tokens of one image under `rule`. */
export function imageTokens(
  rule: ImageTokenRule,
  image: Pick<ImagePart, 'data' | 'width' | 'height'>,
): number {
  if (rule === 'none' || image.data === undefined) return 0;
  const { width, height } = image;
  if (width === undefined || height === undefined || width <= 0 || height <= 0) {
    return UNKNOWN_SIZE_TOKENS[rule];
  }
  return rule === 'anthropic' ? anthropicTokens(width, height) : openaiTokens(width, height);
}
