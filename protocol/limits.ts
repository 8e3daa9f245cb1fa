/**
 * Size limits of the native-messaging channel, measured on Chromium 156 (design.md section 5).
 * Frames are a 32-bit little-endian length followed by that many bytes of UTF-8 JSON.
 */

/** Largest host -> browser frame Chromium accepts; one byte more and it drops the port. */
export const MAX_HOST_TO_BROWSER_FRAME_BYTES = 1_048_576;

/** Largest browser -> host frame Chromium sends. The host refuses longer lengths before allocating. */
export const MAX_BROWSER_TO_HOST_FRAME_BYTES = 64 * 1024 * 1024;

/** Bytes of the length prefix in front of every frame. */
export const FRAME_HEADER_BYTES = 4;

/**
 * Deepest nesting of `tools/call` arguments the host accepts (objects and arrays, the arguments
 * object itself being level 1). Deeper arguments are `invalid-params`: the host hashes, audits and
 * serializes them with recursive walks that a hostile frame could otherwise overflow (issue 13).
 * Results from servers are cut at the same depth by the untrusted-text gate.
 */
export const MAX_TOOL_ARGUMENTS_DEPTH = 64;
