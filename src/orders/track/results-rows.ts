import { readRegularFile } from '../../lib/safe-files.js';
import { CsvSyntaxError, readCsv } from '../../lib/csv-reader.js';
import { CsvError, invalidCsv } from '../create/recipients-csv.js';

/**
 * The rows of a results file of `orders create --results` (src/orders/create/results-file.ts), read
 * back by their column names, so a file with more columns, or its columns in another order,
 * reads the same. `row` and `order_id` are needed; a row without an order id is a recipient
 * no order holds (its batch was refused: `status` and `error` say why).
 */

export interface ResultsRow {
  /** The recipient's spreadsheet row in the recipients file (the header is row 1). */
  row: number;
  external_id: string;
  order_id?: string;
  shipping_order_id?: string;
  /** `created`, `existing` or `refused` (whatever the file says, as it says it). */
  status: string;
  error?: string;
}

const NEEDED = ['row', 'order_id'] as const;

/** The results file's rows, in the file's order. Throws CsvError naming the file (and the line) when it is not a results file. */
export async function readResultsRows(path: string, file: string): Promise<ResultsRow[]> {
  let records: string[][];
  try {
    // The file's CRLF lines, or LF lines a person or a script appended: both end a line. Empty lines are skipped.
    records = readCsv(await readRegularFile(path)).filter((cells) => cells.length > 1 || cells[0] !== '');
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw invalidCsv(file, err);
    throw err;
  }
  const header = (records[0] ?? []).map((name) => name.trim().toLowerCase());
  const missing = NEEDED.filter((name) => !header.includes(name));
  if (missing.length > 0) {
    throw new CsvError(file, undefined, undefined, `not a results file of orders create --results (no ${missing.join(', ')} column)`);
  }
  const at = (cells: string[], name: string): string | undefined => {
    const index = header.indexOf(name);
    const value = index < 0 ? undefined : cells[index]?.trim();
    return value === '' ? undefined : value;
  };
  return records.slice(1).map((cells, i) => {
    const row = Number(at(cells, 'row'));
    // The line in the file: the header is line 1.
    if (!Number.isSafeInteger(row) || row < 1) throw new CsvError(file, i + 2, 'row', `expected a row number, got '${at(cells, 'row') ?? ''}'`);
    return {
      row,
      external_id: at(cells, 'external_id') ?? '',
      order_id: at(cells, 'order_id'),
      shipping_order_id: at(cells, 'shipping_order_id'),
      status: at(cells, 'status') ?? '',
      error: at(cells, 'error'),
    };
  });
}
