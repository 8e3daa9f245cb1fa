import { randomBytes } from 'node:crypto';
import {
  wrapUntrusted as wrapWith,
  type RandomBytes,
  type UntrustedSource,
} from '../../protocol/untrusted/block';

/**
 * The untrusted-data block (design D9) with the host's random source. The format lives in
 * `protocol/untrusted-block.ts`, shared with the extension.
 */
export {
  UNTRUSTED_NOTICE,
  unwrapUntrusted,
  type RandomBytes,
  type UnwrappedUntrusted,
  type UntrustedSource,
} from '../../protocol/untrusted/block';

export function wrapUntrusted(
  payload: string,
  source: UntrustedSource,
  random: RandomBytes = randomBytes,
): string {
  return wrapWith(payload, source, random);
}
