/**
 * What commands print. Results go to `out` (stdout), as tables and `label: value` records for
 * people or as JSON with --json; hints, progress and "nothing here" go to `err`, so stdout holds
 * only what a script would parse. The table and record printers are for human mode: with --json
 * a command prints its data with printJson instead.
 */
import Table from 'cli-table3';

export interface Output {
  json: boolean;
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
}

export interface Column<Row extends object = object> {
  key: string;
  header: string;
  /** Turns the row's value under `key` into the cell's text; by default strings as they are,
   * objects as compact JSON, and `-` for nothing. */
  format?: (value: unknown, row: Row) => string;
}

// No box characters: a header row and columns separated by spaces, like `kubectl get`.
const BORDERLESS = {
  chars: {
    top: '',
    'top-mid': '',
    'top-left': '',
    'top-right': '',
    bottom: '',
    'bottom-mid': '',
    'bottom-left': '',
    'bottom-right': '',
    left: '',
    'left-mid': '',
    mid: '',
    'mid-mid': '',
    right: '',
    'right-mid': '',
    middle: '   ',
  },
  style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
};

export function printJson(o: Output, value: unknown): void {
  o.out.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** A command's list: as JSON with --json, else as a table (printTable). */
export function printList<Row extends object>(o: Output, rows: Row[], columns: Array<Column<Row>>, empty: string): void {
  if (o.json) return printJson(o, rows);
  printTable(o, rows, columns, empty);
}

/** Rows as a table under a header; `empty` (e.g. "No nodes.") goes to err when there are none. */
export function printTable<Row extends object>(o: Output, rows: Row[], columns: Array<Column<Row>>, empty: string): void {
  if (rows.length === 0) {
    note(o, empty);
    return;
  }
  const table = new Table({ ...BORDERLESS, head: columns.map((column) => column.header) });
  for (const row of rows) {
    table.push(
      columns.map(({ key, format }) => {
        const value = (row as Record<string, unknown>)[key];
        return format ? format(value, row) : cellText(value);
      }),
    );
  }
  // cli-table3 pads the last column too; trailing spaces only get in the way of copy and diff.
  const lines = table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd());
  o.out.write(`${lines.join('\n')}\n`);
}

/** One record as aligned `label: value` lines; undefined values are left out, null shows as `-`. */
export function printRecord(o: Output, pairs: Array<[label: string, value: string | undefined | null]>): void {
  const shown = pairs.filter((pair): pair is [string, string | null] => pair[1] !== undefined);
  const width = Math.max(0, ...shown.map(([label]) => label.length + 1));
  for (const [label, value] of shown) o.out.write(`${`${label}:`.padEnd(width)} ${value ?? '-'}\n`);
}

/** A hint for the person at the terminal; on err in every mode, since nothing parses err. */
export function note(o: Output, text: string): void {
  o.err.write(`${text}\n`);
}

function cellText(value: unknown): string {
  if (value === undefined || value === null || value === '') return '-';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
