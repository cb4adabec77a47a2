import { ADDRESS_FIELDS, type AddressField } from '../../contract/address.js';
import { CsvReader, CsvSyntaxError, MAX_FIELD_LENGTH, MAX_RECORD_LENGTH, readCsv, type CsvReaderOptions } from '../../lib/csv-reader.js';
import { errnoWords } from '../../lib/path-checks.js';
import { openRegularFile } from '../../lib/safe-files.js';
import { positiveIdProblem, positiveIntegerProblem } from '../../lib/positive-integer.js';
import { exactIntegerOf } from '../../lib/exact-json.js';

/**
 * Reads a recipients CSV (`--recipients FILE.csv`): one row a recipient.
 *
 * - Encoding UTF-8, with or without a byte order mark; CRLF or LF; RFC 4180 quoting, so a
 *   quoted field may hold commas, quotes (doubled) and line breaks.
 * - Header names are matched after trimming, lower-casing and turning spaces and `-` into
 *   `_` (`Postal Code` -> `postal_code`). Columns: the recipient fields (first_name,
 *   last_name, email, phone, company, line_1, line_2, city, state, postal_code, country);
 *   optional `quantity` (per recipient, default from `--quantity`, else 1); optional
 *   `product` (a custom product id, default from `--product`); every other named column is
 *   an attribute of the line item (`size`, `color`).
 * - Empty cells: an empty optional recipient field (email, phone, company, line_2) is left
 *   out; an empty attribute cell means "no value for this attribute" (the product's rules
 *   then decide whether one is required); an empty `quantity` or `product` cell takes the
 *   default. Rows whose cells are all empty are skipped. A column with an empty header is
 *   ignored when all its cells are empty (a spreadsheet's trailing comma), otherwise an
 *   error. A row shorter than the header has empty cells at the end; a longer row is an
 *   error unless the extra cells are empty.
 * - Rows are numbered as a spreadsheet shows them: the header is row 1, the first
 *   recipient row 2 (a quoted line break does not start a new row).
 * - Limits (docs/orders.md, issue 41.6): a cell of at most 65,536 characters, a row of at
 *   most 1,048,576; no control characters in a cell (NUL bytes, escape sequences: C0 but
 *   tab, DEL, C1; a line break only inside a quoted cell). Each is refused naming its row
 *   and column, as soon as it is read: nothing is stripped, nothing sent.
 */

/** How a recipients list is read: its limits, and no control characters. */
const LIST_READING: CsvReaderOptions = { maxFieldLength: MAX_FIELD_LENGTH, maxRecordLength: MAX_RECORD_LENGTH, refuseControls: true };

export interface RecipientRow {
  /** Spreadsheet row number (header = 1). */
  row: number;
  recipient: Partial<Record<AddressField, string>>;
  /** Attribute columns with a value, by their normalised column name. */
  attributes: Record<string, string>;
  quantity?: number;
  /** A BigInt beyond 2^53: a custom product id as the service shows it (lib/exact-json.ts). */
  product?: number | bigint;
}

export interface RecipientsCsv {
  file: string;
  /** Attribute column names (normalised), in header order. */
  attributeColumns: string[];
  hasQuantity: boolean;
  hasProduct: boolean;
  /** Whether the header's recipient columns come in the interface's order of address fields, so that every row's `recipient` has its keys in that order. */
  recipientsInAddressOrder: boolean;
  rows: RecipientRow[];
}

export class CsvError extends Error {
  constructor(
    readonly file: string,
    readonly row: number | undefined,
    readonly column: string | undefined,
    detail: string,
  ) {
    super(`${csvLocation(file, row, column)}: ${detail}`);
    this.name = 'CsvError';
  }
}

/** `recipients.csv row 5, column postal_code` */
export function csvLocation(file: string, row?: number, column?: string): string {
  let s = file;
  if (row !== undefined) s += ` row ${row}`;
  if (column !== undefined) s += `${row !== undefined ? ',' : ''} column ${column}`;
  return s;
}

const RECIPIENT_SET = new Set<string>(ADDRESS_FIELDS);

function normaliseHeader(h: string): string {
  return h.trim().toLowerCase().replace(/[\s-]+/g, '_');
}

/** A custom product id, exactly: beyond 2^53 a BigInt, as the service may show one (never rounded). */
function parseProductId(value: string, file: string, row: number, column: string): number | bigint {
  const problem = positiveIdProblem(value);
  if (problem !== undefined) throw new CsvError(file, row, column, `${problem}, got "${value}"`);
  return exactIntegerOf(value.trim())!;
}

function parseCount(value: string, file: string, row: number, column: string): number {
  const problem = positiveIntegerProblem(value);
  if (problem !== undefined) throw new CsvError(file, row, column, `${problem}, got "${value}"`);
  return Number(value.trim());
}

/** The CSV's columns, read from its header: how each row becomes a recipient. */
export class RecipientColumns {
  readonly columns: string[];
  readonly attributeColumns: string[];
  readonly recipientsInAddressOrder: boolean;
  readonly hasQuantity: boolean;
  readonly hasProduct: boolean;

  constructor(
    readonly file: string,
    header: string[] | undefined,
  ) {
    if (!header || header.every((h) => h.trim() === '')) {
      throw new CsvError(file, 1, undefined, 'the header row is missing or empty');
    }
    const columns = header.map(normaliseHeader);
    const seen = new Map<string, number>();
    columns.forEach((name, idx) => {
      if (name === '') return;
      if (seen.has(name)) {
        throw new CsvError(file, 1, name, `appears twice (columns ${seen.get(name)! + 1} and ${idx + 1})`);
      }
      seen.set(name, idx);
    });
    if (!ADDRESS_FIELDS.some((field) => seen.has(field))) {
      throw new CsvError(file, 1, undefined, `the header names no recipient field (columns: ${ADDRESS_FIELDS.join(', ')})`);
    }
    this.columns = columns;
    this.attributeColumns = columns.filter((c) => c !== '' && !RECIPIENT_SET.has(c) && c !== 'quantity' && c !== 'product');
    const places = columns.filter((c) => RECIPIENT_SET.has(c)).map((c) => ADDRESS_FIELDS.indexOf(c as AddressField));
    this.recipientsInAddressOrder = places.every((place, i) => i === 0 || place > places[i - 1]!);
    this.hasQuantity = seen.has('quantity');
    this.hasProduct = seen.has('product');
  }

  /** The recipient of spreadsheet row `rowNo`; undefined for a row whose cells are all empty. */
  row(cells: string[], rowNo: number): RecipientRow | undefined {
    const { columns, file } = this;
    if (cells.every((c) => c.trim() === '')) return undefined;
    if (cells.length > columns.length) {
      const extra = cells.slice(columns.length).findIndex((c) => c.trim() !== '');
      if (extra !== -1) {
        throw new CsvError(
          file,
          rowNo,
          `#${columns.length + extra + 1}`,
          `has a value but the header has only ${columns.length} columns (a comma inside an unquoted value?)`,
        );
      }
    }
    const row: RecipientRow = { row: rowNo, recipient: {}, attributes: {} };
    for (let c = 0; c < columns.length; c++) {
      const name = columns[c]!;
      const value = (cells[c] ?? '').trim();
      if (name === '') {
        if (value !== '') throw new CsvError(file, rowNo, `#${c + 1}`, 'has a value but the column has no header name');
        continue;
      }
      if (value === '') continue;
      if (RECIPIENT_SET.has(name)) row.recipient[name as AddressField] = value;
      else if (name === 'quantity') row.quantity = parseCount(value, file, rowNo, name);
      else if (name === 'product') row.product = parseProductId(value, file, rowNo, name);
      else row.attributes[name] = value;
    }
    return row;
  }

  /** The recipients of `records` from index `from` on, the first of them spreadsheet row `rowNo`; rows whose cells are all empty left out. */
  rows(records: readonly string[][], from: number, rowNo: number): RecipientRow[] {
    const rows: RecipientRow[] = [];
    for (let r = from; r < records.length; r++) {
      const row = this.row(records[r]!, rowNo + r - from);
      if (row) rows.push(row);
    }
    return rows;
  }

  /** These columns with these rows. */
  withRows(rows: RecipientRow[]): RecipientsCsv {
    const { file, attributeColumns, hasQuantity, hasProduct, recipientsInAddressOrder } = this;
    return { file, attributeColumns, hasQuantity, hasProduct, recipientsInAddressOrder, rows };
  }
}

/**
 * A malformed quote, in the file's words: its spreadsheet row (a recipients list's or a
 * results file's); a cell too long or holding a control character: its row and column (as
 * the header names it, `#N` where it names none).
 */
export function invalidCsv(file: string, err: CsvSyntaxError): CsvError {
  if (err.kind === 'syntax') return new CsvError(file, err.record, undefined, `not a valid CSV: ${err.message}`);
  const name = err.record > 1 && err.header ? normaliseHeader(err.header[err.field - 1] ?? '') : '';
  return new CsvError(file, err.record, name === '' ? `#${err.field}` : name, err.detail);
}

/**
 * Parses the CSV text, or its UTF-8 bytes. `file` is the name used in errors,
 * usually the path as the user typed it.
 */
export function parseRecipientsCsv(input: string | Buffer, file: string): RecipientsCsv {
  let records: string[][];
  try {
    records = readCsv(input, LIST_READING);
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw invalidCsv(file, err);
    throw err;
  }
  const columns = new RecipientColumns(file, records[0]);
  const rows = columns.rows(records, 1, 2);
  if (rows.length === 0) throw new CsvError(file, undefined, undefined, 'has a header but no recipient rows');
  return columns.withRows(rows);
}

/**
 * The file's records as they are read (src/lib/csv-reader.ts), those of each piece read
 * together; a read error (a directory, a disk error) is thrown as it comes. Only a regular
 * file is read: opened without waiting (a FIFO put in the list's place since the flags were
 * checked is refused at once, not waited on where no signal reaches: src/lib/safe-files.ts).
 */
async function* csvRecords(path: string, signal?: AbortSignal): AsyncGenerator<string[][]> {
  signal?.throwIfAborted();
  const reader = new CsvReader(LIST_READING);
  const stream = (await openRegularFile(path)).createReadStream();
  try {
    for await (const bytes of stream as AsyncIterable<Buffer>) {
      // Stopped (Ctrl-C) between two pieces of 64 KiB, not once the whole list is read.
      signal?.throwIfAborted();
      yield reader.push(bytes);
    }
    yield reader.end();
  } finally {
    stream.destroy();
  }
}

/** The list's columns, as its header names them (normalised: `Postal Code` is `postal_code`). */
export async function readColumns(path: string, file: string): Promise<string[]> {
  for await (const records of csvRecords(path)) if (records.length > 0) return new RecipientColumns(file, records[0]).columns;
  return [];
}

/**
 * Reads a recipients CSV file as a stream, `size` recipients at a time, so memory stays
 * flat however long the file is. Each batch carries the file's columns. An aborted `signal`
 * ends the read at the next piece, throwing its reason (an AbortError).
 */
export async function* readRecipientBatches(path: string, file: string, size: number, signal?: AbortSignal): AsyncGenerator<RecipientsCsv> {
  let columns: RecipientColumns | undefined;
  let batch: RecipientRow[] = [];
  let rowNo = 0;
  let any = false;
  try {
    for await (const records of csvRecords(path, signal)) {
      let first = 0;
      if (!columns && records.length > 0) {
        columns = new RecipientColumns(file, records[0]);
        first = 1;
      }
      if (!columns) continue;
      // The rows in a loop of their own: a loop in this generator makes V8 compile the whole generator when it gets hot.
      const rows = columns.rows(records, first, rowNo + first + 1);
      rowNo += records.length;
      for (let from = 0; from < rows.length; ) {
        const take = Math.min(size - batch.length, rows.length - from);
        batch.push(...rows.slice(from, from + take));
        from += take;
        any = true;
        if (batch.length === size) {
          yield columns.withRows(batch);
          batch = [];
        }
      }
    }
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw invalidCsv(file, err);
    if ((err as NodeJS.ErrnoException).syscall !== undefined || (err as NodeJS.ErrnoException).code === 'ENOTREG') throw new CsvError(file, undefined, undefined, `cannot be read: ${errnoWords(err)}`);
    throw err;
  }
  if (!columns) throw new CsvError(file, 1, undefined, 'the header row is missing or empty');
  if (!any) throw new CsvError(file, undefined, undefined, 'has a header but no recipient rows');
  if (batch.length > 0) yield columns.withRows(batch);
}
