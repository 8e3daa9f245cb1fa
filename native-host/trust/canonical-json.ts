import { createHash } from 'node:crypto';

/**
 * Canonical JSON: object keys sorted by UTF-16 code unit, no whitespace, arrays in order, and
 * `undefined` members dropped (as JSON.stringify does). Two values that mean the same JSON
 * serialize to the same text however their keys were ordered, so hashes over it (launch
 * fingerprints, tool pins, approved arguments) ignore key order and formatting, and only that.
 *
 * Throws TypeError for values JSON cannot represent (functions, symbols, BigInt, non-finite
 * numbers) and for cycles, instead of silently hashing something else.
 */
export function canonicalJson(value: unknown): string {
  return write(value, new Set());
}

/** Lower-case hex SHA-256 of the UTF-8 bytes of `text`. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** SHA-256 of the canonical JSON of `value`. */
export function canonicalHash(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

function write(value: unknown, seen: Set<object>): string {
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
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      const items: unknown[] = value;
      return `[${items.map((item) => (item === undefined ? 'null' : write(item, seen))).join(',')}]`;
    }
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${write(v, seen)}`).join(',')}}`;
  } finally {
    seen.delete(value);
  }
}
