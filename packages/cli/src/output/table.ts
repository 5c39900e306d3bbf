/** Aligned text tables and key/value lists for a terminal: columns padded to their widest cell, money right-aligned. */

export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
  /** Numbers and money read best right-aligned. */
  align?: 'left' | 'right';
}

/** Characters a terminal shows for `value` (combining marks take no column). */
function width(value: string): number {
  return [...value.normalize('NFC')].length;
}

function pad(value: string, size: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, size - width(value)));
  return align === 'right' ? fill + value : value + fill;
}

/** A header line and one line per row, columns two spaces apart, no trailing spaces; `empty` when there are no rows. */
export function table<Row>(rows: readonly Row[], columns: readonly Column<Row>[], empty = 'Nothing to show.'): string {
  if (rows.length === 0) return `${empty}\n`;
  const cells = rows.map((row) => columns.map((column) => oneLine(column.value(row))));
  const widths = columns.map((column, index) => Math.max(width(column.header), ...cells.map((line) => width(line[index]!))));
  const line = (values: string[]) =>
    values
      .map((value, index) => pad(value, widths[index]!, columns[index]!.align ?? 'left'))
      .join('  ')
      .trimEnd();
  return `${[line(columns.map((column) => column.header)), ...cells.map(line)].join('\n')}\n`;
}

/** `Label:  value` lines, the values aligned. */
export function keyValues(entries: readonly (readonly [string, string])[]): string {
  const size = Math.max(...entries.map(([label]) => width(label) + 1));
  return `${entries.map(([label, value]) => `${pad(`${label}:`, size, 'left')}  ${oneLine(value)}`.trimEnd()).join('\n')}\n`;
}

/** A cell never breaks the table: line breaks and tabs become spaces. */
function oneLine(value: string): string {
  return value.replace(/[\r\n\t]+/g, ' ');
}
