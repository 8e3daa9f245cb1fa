/** Plain-text tables with aligned columns: first column left-aligned, the rest right-aligned. */

export type Row = readonly string[];

export function renderTable(header: Row, rows: readonly Row[], indent = '  '): string {
  const all = [header, ...rows];
  const widths = header.map((_, col) => Math.max(...all.map((row) => (row[col] ?? '').length)));
  const line = (row: Row): string =>
    indent +
    widths
      .map((width, col) => {
        const cell = row[col] ?? '';
        return col === 0 ? cell.padEnd(width) : cell.padStart(width);
      })
      .join('  ')
      .trimEnd();
  const rule = indent + widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** A number with `digits` decimals; '-' for NaN or undefined. */
export function fixed(value: number | null | undefined, digits: number): string {
  return value === null || value === undefined || Number.isNaN(value) ? '-' : value.toFixed(digits);
}

/** An integer with thousands separators; '-' for NaN or undefined. */
export function count(value: number | null | undefined): string {
  return value === null || value === undefined || Number.isNaN(value)
    ? '-'
    : Math.round(value).toLocaleString('en-US');
}

/** The change from `before` to `after` as a signed percentage ("-37%" is a saving). */
export function change(before: number, after: number): string {
  if (before === 0) return '-';
  const pct = ((after - before) / before) * 100;
  return `${pct > 0 ? '+' : ''}${pct.toFixed(0)}%`;
}
