// Number and table formatting shared by the printed report and results.json, so both round the same way.
export const fmt = (value: number | null | undefined, digits = 1) =>
  value === null || value === undefined || Number.isNaN(value) ? 'n/a' : value.toFixed(digits);

export const ratio = (value: number | null | undefined, base: number | null | undefined) =>
  value === null || value === undefined || !base ? null : Math.round((value / base) * 1000) / 1000;

export const times = (value: number | null) => (value === null ? '' : `x${value.toFixed(2)}`);

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows
    .map(
      (row, r) =>
        row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ') +
        (r === 0 ? `\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : ''),
    )
    .join('\n');
}
