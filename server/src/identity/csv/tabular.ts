import { types } from 'node:util';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { Response } from 'express';
import ExcelJS from 'exceljs';
import { stringify } from 'csv-stringify';

export type Cell = string | number | boolean | Date | null | undefined;

export interface Column<T> {
  header: string;
  value: (row: T) => Cell;
  /** Column width in the spreadsheet (characters). */
  width?: number;
}

/** Characters that make a spreadsheet read a CSV cell as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A CSV cell as text. Text starting with = + - @ (or tab, carriage return) gets a leading apostrophe,
 * so Excel and LibreOffice show it as text instead of evaluating it (OWASP). Numbers stay numbers.
 */
export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return '';
  if (types.isDate(value)) return value.toISOString(); // (a Date of any realm: see sql-literal.ts)
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** A spreadsheet cell: strings are written as string cells (never formulas), so no escaping is needed. */
function xlsxCell(value: Cell): string | number | boolean | Date | null {
  return value === undefined ? null : value;
}

export interface TableDownload<T> {
  /** File name without extension. */
  filename: string;
  asExcel: boolean;
  sheetName?: string;
  columns: readonly Column<T>[];
  rows: AsyncIterable<T> | Iterable<T>;
}

/**
 * Streams a table to the response as a file download: CSV (UTF-8 with a BOM, so Excel reads accents
 * right) or, with `asExcel`, an .xlsx written by exceljs's streaming WorkbookWriter. Rows are written
 * as they come from `rows` with back-pressure; the whole file is never held in memory.
 */
export async function sendTable<T>(res: Response, download: TableDownload<T>): Promise<void> {
  const ext = download.asExcel ? 'xlsx' : 'csv';
  res.status(200);
  res.setHeader(
    'Content-Type',
    download.asExcel
      ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
      : 'text/csv; charset=utf-8',
  );
  res.setHeader('Content-Disposition', `attachment; filename="${download.filename}.${ext}"`);
  res.setHeader('Cache-Control', 'no-store');
  try {
    if (download.asExcel) await writeXlsx(res, download);
    else await writeCsv(res, download);
  } catch (e) {
    // Once the download has started, a failure can only cut it: the client sees an incomplete
    // transfer instead of a file that looks whole. A client that went away is not an error.
    if (res.destroyed && !res.writableFinished && isPrematureClose(e)) return;
    res.destroy(e instanceof Error ? e : new Error(String(e)));
    throw e;
  }
}

const isPrematureClose = (e: unknown) =>
  e instanceof Error && (e as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE';

/** Resolves when the stream can take more, or when the response is gone (the caller then stops). */
function drainedOrClosed(stream: NodeJS.EventEmitter, res: Response): Promise<unknown> {
  return Promise.race([once(stream, 'drain'), once(res, 'close')]);
}

async function writeCsv<T>(res: Response, { columns, rows }: TableDownload<T>): Promise<void> {
  const csv = stringify({ header: true, columns: columns.map((c) => c.header), bom: true });
  csv.pipe(res);
  const done = finished(res);
  for await (const row of rows) {
    if (res.destroyed) break; // the client went away: stop reading the database
    if (!csv.write(columns.map((c) => csvCell(c.value(row))))) await drainedOrClosed(csv, res);
  }
  csv.end();
  await done;
}

async function writeXlsx<T>(res: Response, { columns, rows, sheetName }: TableDownload<T>): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: res,
    useStyles: false,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(sheetName ?? 'Sheet1');
  sheet.columns = columns.map((c, i) => ({ header: c.header, key: `c${i}`, width: c.width ?? 20 }));
  for await (const row of rows) {
    if (res.destroyed) break;
    sheet.addRow(columns.map((c) => xlsxCell(c.value(row)))).commit();
  }
  sheet.commit();
  await workbook.commit();
}
