import type { ReactNode } from "react";

/** One column: its header, what each row shows in it, and whether the header is for screen readers only (an actions column). */
export type DataColumn<Row> = {
  header: string;
  cell: (row: Row) => ReactNode;
  /** the cell names its row (`<th scope="row">`), as a version names its line */
  rowHeader?: boolean;
  hideHeader?: boolean;
  className?: string;
};

/**
 * The portal's table of records, the one the admin console, the settings pages and the usage
 * panels share: a caption (for screen readers, or shown as the table's title), column headers
 * with `scope="col"`, and a row per record, scrolling sideways on a narrow screen.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  minWidth,
  showCaption = false,
  empty,
  screenReaderOnly = false,
}: {
  caption: string;
  /** the caption is the table's visible title, where no heading above names it */
  showCaption?: boolean;
  /** the one row shown when there are no records; without it the table is left with its headers */
  empty?: string;
  /** the whole table is for screen readers, as a chart's numbers are */
  screenReaderOnly?: boolean;
  columns: DataColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  /** the width below which the table scrolls rather than squeezes, e.g. "40rem" */
  minWidth?: `${number}rem`;
}) {
  return (
    // A table ignores the height sr-only gives it, and a scrolling box of one pixel is a region no keyboard reaches: the wrapper alone clips it.
    <div className={screenReaderOnly ? "sr-only" : "relative overflow-x-auto"}>
      <table className="w-full border-collapse bg-white text-left text-sm" style={minWidth ? { minWidth } : undefined}>
        <caption className={showCaption ? "p-2 text-left font-medium" : "sr-only"}>{caption}</caption>
        <thead>
          <tr className="border-b border-slate-300">
            {columns.map((column) => (
              <th key={column.header} scope="col" className="p-2">
                {column.hideHeader ? <span className="sr-only">{column.header}</span> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && empty ? (
            <tr>
              <td colSpan={columns.length} className="p-2 text-slate-600">
                {empty}
              </td>
            </tr>
          ) : null}
          {rows.map((row) => (
            <tr key={rowKey(row)} className="border-b border-slate-200 align-top">
              {columns.map((column) =>
                column.rowHeader ? (
                  <th key={column.header} scope="row" className={`p-2 ${column.className ?? ""}`}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td key={column.header} className={`p-2 ${column.className ?? ""}`}>
                    {column.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
