/** 12345 -> "12,345": counts the user reads (characters, tokens). */
export function exactCount(n: number): string {
  return String(Math.max(0, Math.round(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
