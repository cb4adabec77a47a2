/**
 * Rows of a recipients list as people read them: `row 7`, `rows 1-3`, `rows 1-3, 8, 10-11`;
 * past a few ranges, the count (`rows 1-3, 8, 10-11, 14, 20-22 and 40 more`). Rows are
 * spreadsheet row numbers (the header is row 1), as every message about a list names them.
 */
export function describeRows(rows: readonly number[], shown = 5): string {
  if (rows.length === 0) return 'no rows';
  if (rows.length === 1) return `row ${rows[0]}`;
  const sorted = [...rows].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const row of sorted) {
    const last = ranges.at(-1);
    if (last && row === last[1] + 1) last[1] = row;
    else ranges.push([row, row]);
  }
  const text = ranges.slice(0, shown).map(([a, b]) => (a === b ? String(a) : `${a}-${b}`));
  const rest = ranges.slice(shown).reduce((n, [a, b]) => n + b - a + 1, 0);
  return `rows ${text.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}`;
}
