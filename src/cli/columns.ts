// Left-aligned text columns for the plain views (/tools, /approvals, /help).

const COLUMN_GAP = "  ";

/** Pads every cell but the last of each row to its column's widest cell. */
export function formatColumns(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, index) => {
      widths[index] = Math.max(widths[index] ?? 0, cell.length);
    });
  }
  return rows.map((row) =>
    row.map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index] ?? 0))).join(COLUMN_GAP).trimEnd(),
  );
}
