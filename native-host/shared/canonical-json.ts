import { hash } from 'node:crypto';

/**
 * Canonical JSON: object keys sorted by UTF-16 code unit, no whitespace, arrays in order, and
 * `undefined` members dropped (as JSON.stringify does). Two values that mean the same JSON
 * serialize to the same text however their keys were ordered, so hashes over it (launch
 * fingerprints, tool pins, approved arguments) ignore key order and formatting, and only that.
 *
 * Throws TypeError for values JSON cannot represent (functions, symbols, BigInt, non-finite
 * numbers), for cycles, and for nesting deeper than MAX_CANONICAL_DEPTH, instead of silently
 * hashing something else or overflowing the stack (a RangeError that callers would not expect).
 */
export function canonicalJson(value: unknown): string {
  return write(value, new Set(), 1);
}

/**
 * A backstop far above what the host lets in (tool definitions 128 levels, arguments and results
 * 64): what reaches here from outside is depth-checked before, so this only turns a missed check
 * into an ordinary error.
 */
export const MAX_CANONICAL_DEPTH = 1_000;

/** Lower-case hex SHA-256 of the UTF-8 bytes of `text`. */
export function sha256Hex(text: string): string {
  // One-shot `crypto.hash` (Node 20.12+): half the cost of a Hash object for short texts, and
  // the host hashes a few per tool call (arguments and result for the audit log).
  return hash('sha256', text, 'hex');
}

/** SHA-256 of the canonical JSON of `value`. */
export function canonicalHash(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

function write(value: unknown, seen: Set<object>, depth: number): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value))
        throw new TypeError(`canonicalJson: ${String(value)} is not JSON`);
      return JSON.stringify(value);
    case 'object':
      break;
    case 'undefined':
    case 'function':
    case 'symbol':
    case 'bigint':
      throw new TypeError(`canonicalJson: a ${typeof value} is not JSON`);
  }
  if (seen.has(value)) throw new TypeError('canonicalJson: the value contains a cycle');
  if (depth > MAX_CANONICAL_DEPTH) {
    throw new TypeError(`canonicalJson: nested deeper than ${String(MAX_CANONICAL_DEPTH)} levels`);
  }
  seen.add(value);
  try {
    // Plain loops and string concatenation: this runs on every tool call (audit hashes), and
    // the array-of-entries version allocated several times the output.
    if (Array.isArray(value)) {
      const items: readonly unknown[] = value;
      let out = '[';
      for (let i = 0; i < items.length; i += 1) {
        const item = items[i];
        if (i > 0) out += ',';
        out += item === undefined ? 'null' : write(item, seen, depth + 1);
      }
      return `${out}]`;
    }
    // The default sort compares UTF-16 code units, the order canonical JSON uses.
    const keys = Object.keys(value).sort();
    let out = '{';
    for (const key of keys) {
      const member: unknown = Reflect.get(value, key);
      if (member === undefined) continue;
      if (out.length > 1) out += ',';
      out += `${JSON.stringify(key)}:${write(member, seen, depth + 1)}`;
    }
    return `${out}}`;
  } finally {
    seen.delete(value);
  }
}
