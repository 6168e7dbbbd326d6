import type { ReactNode } from 'react';
import { TableWrap } from './TableWrap';

export interface Column<Row> {
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** The cell's class: one for the column, or one by row. */
  className?: string | ((row: Row) => string | undefined);
}

/**
 * A list's table, as the list pages show theirs: nothing while `rows` is still being read, the
 * `empty` sentence when there are none (without one, the table with no rows), else a table that
 * scrolls inside a region named `label`. `rowData` gives each row the data-* attributes that name
 * what it shows.
 */
export function ListTable<Row>(props: {
  label: string;
  rows: Row[] | null;
  columns: Column<Row>[];
  rowKey: (row: Row) => string;
  rowData?: (row: Row) => Record<`data-${string}`, string>;
  empty?: ReactNode;
  /** A caption for screen readers only. */
  caption?: ReactNode;
  className?: string;
  testId?: string;
}) {
  const { rows, columns, empty } = props;
  if (!rows) return null;
  if (rows.length === 0 && empty !== undefined) return <p>{empty}</p>;
  return (
    <TableWrap label={props.label}>
      <table className={props.className} data-testid={props.testId}>
        {props.caption !== undefined && <caption className="visually-hidden">{props.caption}</caption>}
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={props.rowKey(row)} {...props.rowData?.(row)}>
              {columns.map((column, index) => (
                <td key={index} className={typeof column.className === 'function' ? column.className(row) : column.className}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** The header of a column of row buttons: named for screen readers only. */
export const ACTIONS_HEADER = <span className="visually-hidden">Actions</span>;
