/**
 * Orders strings by UTF-16 code unit, as `Array.prototype.sort` does by default and canonical
 * JSON does: independent of the locale, so two machines list the same things in the same order.
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
