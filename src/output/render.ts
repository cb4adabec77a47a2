import type { JSONValue } from '@jmespath-community/jmespath';
import { stringifyExact } from '../lib/exact-json.js';
import { csvEncoder, tsvCell } from './csv.js';
import { queryProblemOf, withElidedQuotes } from './query-text.js';
import type { IO } from './io.js';
import { cell } from './sanitize.js';
import type { TableColumn } from './table.js';

/** The output options shared by every command (global flags). */
export interface OutputFormat {
  json: boolean;
  jsonl: boolean;
  /** A JMESPath expression applied to the JSON output. */
  query?: string;
  /** `--format csv|tsv`: delimited rows even on a terminal (TSV is what a pipe gets anyway). */
  delimited?: 'csv' | 'tsv';
}

/** A column of a list: its header, its value, and its place in a terminal table (TableColumn: kind, priority, min). */
export interface Column<T> extends TableColumn {
  header: string;
  value: (record: T) => unknown;
}

export interface OutputTarget {
  io: IO;
  format: OutputFormat;
}

/** What a terminal says about a list besides its rows. */
export interface ListNotes {
  /** The records' plural noun: an empty list on a terminal says `no <noun>` on stderr. */
  noun: string;
  /** Columns the command already left out at this width (`orders track`): named with those the table leaves out, in one "not shown at this width" line. */
  leftOut?: readonly string[];
  /** The list's pages (src/commands/page-options.ts): their progress counter is cleared before the table, and what they leave out is said under it. */
  page?: {
    done(): void;
    /** The line under a list that is not every record, given how many were printed. */
    notShown(printed: number): string | undefined;
  };
}

/** Whether this run prints machine-readable JSON rather than a table, TSV or CSV. */
export function isMachineOutput(format: OutputFormat): boolean {
  return format.json || format.jsonl || format.query !== undefined;
}

/** Whether records go out as a terminal table (rather than TSV or CSV rows). */
export function printsTable({ io, format }: OutputTarget): boolean {
  return io.stdoutIsTTY && format.delimited === undefined;
}

/** The header of TSV and CSV output: lower_snake_case, so `cut`, `awk` and spreadsheets name columns alike. */
function snakeHeader(header: string): string {
  return header.toLowerCase().replace(/ /g, '_');
}

/**
 * Prints a list of records in the chosen format. JSONL, TSV and CSV stream record by
 * record, so `--all` over any number of records keeps memory flat; JSON, `--query` and
 * terminal tables need the whole list. A terminal table is followed on stderr by `no
 * <noun>` when the list is empty, or by what is not shown. Returns the number printed.
 */
export async function printList<T>(
  target: OutputTarget,
  records: AsyncIterable<T> | Iterable<T>,
  columns: Column<T>[],
  notes?: ListNotes,
): Promise<number> {
  const { io, format } = target;
  if (format.jsonl) {
    const search = format.query === undefined ? undefined : await compileQuery(format.query);
    const out = batchedWriter(io);
    let count = 0;
    for await (const record of records) {
      await out.write(`${stringifyExact(search ? search(record) : record)}\n`);
      count++;
    }
    await out.end();
    return count;
  }
  if (format.json || format.query !== undefined) {
    const all: T[] = [];
    for await (const record of records) all.push(record);
    await printJson(target, all);
    return all.length;
  }
  if (printsTable(target)) {
    const all: T[] = [];
    for await (const record of records) all.push(record);
    notes?.page?.done();
    // The table layout (string-width) loads only when a table is printed.
    const { fittedTable, notShownLine } = await import('./table.js');
    const laidOut = all.length > 0 ? fittedTable(io, columns.map((c) => c.header), all.map((r) => columns.map((c) => cell(c.value(r)))), columns) : undefined;
    if (laidOut) io.out(laidOut.text);
    // The columns that did not fit are named (issue 42.3), never left out silently.
    const leftOut = [...(notes?.leftOut ?? []), ...(laidOut?.leftOut ?? [])];
    if (laidOut && leftOut.length > 0) io.err(notShownLine(leftOut));
    const note = all.length === 0 ? notes && `no ${notes.noun}` : notes?.page?.notShown(all.length);
    if (note) io.err(note);
    return all.length;
  }
  const encode = format.delimited === 'csv' ? await csvEncoder() : tsvLine;
  // The header goes out with the first page, so a failed request prints no partial output.
  const iterator = (Symbol.asyncIterator in records ? records[Symbol.asyncIterator]() : records[Symbol.iterator]()) as AsyncIterator<T> | Iterator<T>;
  let next = await iterator.next();
  const out = batchedWriter(io);
  await out.write(encode(columns.map((c) => snakeHeader(c.header))));
  let count = 0;
  for (; !next.done; next = await iterator.next()) {
    const record = next.value as T;
    await out.write(encode(columns.map((c) => c.value(record))));
    count++;
  }
  await out.end();
  return count;
}

/** A TSV line: each cell on one line, controls made visible, formulas neutralised (csv.ts tsvCell), tab-separated. */
function tsvLine(cells: unknown[]): string {
  return `${cells.map(tsvCell).join('\t')}\n`;
}

/** How a record view is shown on a terminal. */
export interface RecordView {
  /** Leave out the fields that have no value (detail views: what the service did not send is no news). */
  skipEmpty?: boolean;
}

/**
 * Prints one record: JSON when asked; with `--format csv`, a header line and one row;
 * else a field/value view (a table on a terminal, `field<TAB>value` lines when piped).
 */
export async function printRecord<T>(target: OutputTarget, record: T, fields: Column<T>[], view: RecordView = {}): Promise<void> {
  const { io, format } = target;
  if (isMachineOutput(format)) {
    await printJson(target, record);
    return;
  }
  if (format.delimited === 'csv') {
    const encode = await csvEncoder();
    await write(io, encode(fields.map((f) => snakeHeader(f.header))) + encode(fields.map((f) => f.value(record))));
    return;
  }
  const rows = fields.map((f) => [f.header, cell(f.value(record))]);
  if (printsTable(target)) {
    const { table } = await import('./table.js');
    io.out(table(io, undefined, view.skipEmpty ? rows.filter(([, value]) => value !== '') : rows));
    return;
  }
  // Piped (or --format tsv): `field<TAB>value` lines, each value a TSV cell (formulas neutralised).
  for (const field of fields) await write(io, `${field.header}\t${tsvCell(field.value(record))}\n`);
}

/** Prints any JSON value, after `--query` when one is given (pretty, one document). */
export async function printJson(target: OutputTarget, value: unknown): Promise<void> {
  const { io, format } = target;
  const result = format.query === undefined ? value : (await compileQuery(format.query))(value);
  const text = format.jsonl && Array.isArray(result)
    ? result.map((item) => stringifyExact(item)).join('\n')
    : stringifyExact(result ?? null, format.jsonl ? undefined : 2);
  await write(io, `${text}\n`);
}

/** Writes to stdout and waits when the pipe is full, so large outputs stream. */
export function write(io: IO, text: string): Promise<void> | void {
  if (io.stdout.write(text)) return;
  return new Promise((resolve) => io.stdout.once('drain', () => resolve()));
}

/** JMESPath (@jmespath-community/jmespath, the maintained implementation), loaded only for --query. */
function loadJmesPath(): Promise<typeof import('@jmespath-community/jmespath')> {
  return import('@jmespath-community/jmespath');
}

const BATCH_BYTES = 64 * 1024;

/**
 * Coalesces small writes: the lines written in one turn of the event loop (a page of
 * records) go out as one write once the loop turns (setImmediate), or at 64 KB. A write
 * per record cost a syscall each: 20,000 records spent ~190 ms of CPU in write() in
 * `npm run bench` (list --all --jsonl). Output still streams page by page, and a full pipe
 * still pauses the producer.
 */
function batchedWriter(io: IO): { write(text: string): Promise<void> | void; end(): Promise<void> | void } {
  let buffer = '';
  let scheduled = false;
  let draining: Promise<void> | undefined;
  const flush = (): void => {
    scheduled = false;
    if (buffer === '') return;
    const text = buffer;
    buffer = '';
    const pending = write(io, text);
    if (pending) draining = pending.then(() => (draining = undefined));
  };
  return {
    write(text) {
      buffer += text;
      if (buffer.length >= BATCH_BYTES) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
      return draining;
    },
    end() {
      flush();
      return draining;
    },
  };
}

async function compileQuery(expression: string): Promise<(value: unknown) => unknown> {
  const { search } = await loadJmesPath();
  // Literals with elided quotes (`paid`) as the AWS CLI takes them (query-text.ts).
  const query = withElidedQuotes(expression);
  // The records are JSON as the service sent them (or JSON.parse made them).
  return (value) => search(value as JSONValue, query);
}

/** Why `expression` is not valid JMESPath (in jmespath's words), or undefined when it is. */
export async function queryProblem(expression: string): Promise<string | undefined> {
  // In jmespath's words, with the column it fails at (query-text.ts).
  return queryProblemOf(await loadJmesPath(), expression);
}
