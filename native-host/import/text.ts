import { formatJsonPath } from '../config/json-format';

/** Showing text from foreign files in messages: quoted, invisible characters escaped, capped. */

/** A value from a foreign file, quoted with invisible characters escaped and capped. */
export function shownValue(text: string): string {
  const capped = text.length > 120 ? `${text.slice(0, 120)}...` : text;
  return JSON.stringify(capped).replace(
    /[\p{C}\p{Zl}\p{Zp}]/gu,
    (char) => `\\u{${(char.codePointAt(0) ?? 0).toString(16)}}`,
  );
}

/** A key as formatJsonPath shows it: a plain word as is, anything else quoted. */
export function shownKey(key: string): string {
  return formatJsonPath([key]);
}

/** A `${name}` variable as written, or a placeholder when its name is odd. */
export function shownVariable(name: string): string {
  return /^[\w:./-]{1,60}$/.test(name) ? `\${${name}}` : 'a ${...} variable';
}
