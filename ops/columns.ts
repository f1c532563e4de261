/**
 * Rows of text for people: padded columns for a terminal, and Markdown for reports. One
 * formatter for `npm run messages`, the robustness report and the benchmark's.
 */

/** Width as a terminal shows it, near enough: characters (code points), not UTF-16 units. */
const width = (cell: string) => [...cell].length;
const pad = (cell: string, to: number) => cell + ' '.repeat(Math.max(0, to - width(cell)));

function columnWidths(rows: readonly (readonly string[])[], minimum = 0): number[] {
  const columns = Math.max(0, ...rows.map((row) => row.length));
  return Array.from({ length: columns }, (_, column) => Math.max(minimum, ...rows.map((row) => width(row[column] ?? ''))));
}

/** Rows (a header row first, if any) as columns padded to line up, two spaces apart. */
export function alignedColumns(rows: readonly (readonly string[])[]): string {
  const widths = columnWidths(rows);
  return rows
    .map((row) =>
      row
        .map((cell, column) => pad(cell, widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** A Markdown table; pipes and line breaks in cells are escaped so a cell cannot break the layout. */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const clean = (cell: string) => cell.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
  const all = [header, ...rows].map((row) => row.map(clean));
  // At least 3 wide: the separator row needs three dashes.
  const widths = columnWidths(all, 3);
  const line = (row: string[]) => `| ${widths.map((to, column) => pad(row[column] ?? '', to)).join(' | ')} |`;
  return [line(all[0]!), `| ${widths.map((to) => '-'.repeat(to)).join(' | ')} |`, ...all.slice(1).map(line)].join('\n');
}
