import { UsageError } from '../errors.js';
import type { IO } from './io.js';
import { cell } from './sanitize.js';

/** The output options shared by every command (global flags). */
export interface OutputFormat {
  json: boolean;
  jsonl: boolean;
  /** A JMESPath expression applied to the JSON output. */
  query?: string;
}

export interface Column<T> {
  header: string;
  value: (record: T) => unknown;
}

export interface OutputTarget {
  io: IO;
  format: OutputFormat;
}

/** Whether this run prints machine-readable JSON rather than a table or TSV. */
export function isMachineOutput(format: OutputFormat): boolean {
  return format.json || format.jsonl || format.query !== undefined;
}

/**
 * Prints a list of records in the chosen format. JSONL and TSV stream record by record,
 * so `--all` over any number of records keeps memory flat; JSON, `--query` and TTY tables
 * need the whole list. Returns the number of records printed.
 */
export async function printList<T>(
  target: OutputTarget,
  records: AsyncIterable<T> | Iterable<T>,
  columns: Column<T>[],
): Promise<number> {
  const { io, format } = target;
  if (format.jsonl) {
    const search = format.query === undefined ? undefined : await compileQuery(format.query);
    const out = batchedWriter(io);
    let count = 0;
    for await (const record of records) {
      await out.write(`${JSON.stringify(search ? search(record) : record)}\n`);
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
  if (io.stdoutIsTTY) {
    const all: T[] = [];
    for await (const record of records) all.push(record);
    io.out(await table(io, columns.map((c) => c.header), all.map((r) => columns.map((c) => cell(c.value(r))))));
    return all.length;
  }
  // The header goes out with the first page, so a failed request prints no partial output.
  const iterator = (Symbol.asyncIterator in records ? records[Symbol.asyncIterator]() : records[Symbol.iterator]()) as AsyncIterator<T> | Iterator<T>;
  let next = await iterator.next();
  const out = batchedWriter(io);
  await out.write(`${columns.map((c) => c.header.toLowerCase().replace(/ /g, '_')).join('\t')}\n`);
  let count = 0;
  for (; !next.done; next = await iterator.next()) {
    await out.write(`${columns.map((c) => cell(c.value(next.value as T))).join('\t')}\n`);
    count++;
  }
  await out.end();
  return count;
}

/**
 * Prints one record: JSON when asked, else a two-column field/value view (a table on a
 * TTY, `field<TAB>value` lines when piped).
 */
export async function printRecord<T>(target: OutputTarget, record: T, fields: Column<T>[]): Promise<void> {
  const { io, format } = target;
  if (isMachineOutput(format)) {
    await printJson(target, record);
    return;
  }
  const rows = fields.map((f) => [f.header, cell(f.value(record))]);
  if (io.stdoutIsTTY) {
    io.out(await table(io, undefined, rows));
    return;
  }
  for (const [name, value] of rows) await write(io, `${name}\t${value}\n`);
}

/** Prints any JSON value, after `--query` when one is given (pretty, one document). */
export async function printJson(target: OutputTarget, value: unknown): Promise<void> {
  const { io, format } = target;
  const result = format.query === undefined ? value : (await compileQuery(format.query))(value);
  const text = format.jsonl && Array.isArray(result)
    ? result.map((item) => JSON.stringify(item)).join('\n')
    : JSON.stringify(result ?? null, null, format.jsonl ? undefined : 2);
  await write(io, `${text}\n`);
}

/** Writes to stdout and waits when the pipe is full, so large outputs stream. */
export function write(io: IO, text: string): Promise<void> | void {
  if (io.stdout.write(text)) return;
  return new Promise((resolve) => io.stdout.once('drain', () => resolve()));
}

interface JmesPath {
  search(value: unknown, expression: string): unknown;
  compile(expression: string): unknown;
}

async function loadJmesPath(): Promise<JmesPath> {
  // jmespath is CommonJS: bundled, its functions are on the default export only.
  const module = (await import('jmespath')) as unknown as JmesPath & { default?: JmesPath };
  return module.default ?? module;
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
  const jmespath = await loadJmesPath();
  return (value) => jmespath.search(value, expression);
}

/** Rejects a `--query` that is not valid JMESPath, before any request is sent. */
export async function checkQuery(expression: string): Promise<void> {
  try {
    (await loadJmesPath()).compile(expression);
  } catch (error) {
    throw new UsageError(`--query: not a valid JMESPath expression: ${(error as Error).message}`);
  }
}

/** A terminal table as text (a header row when `head` is given, else field/value rows). */
export async function table(io: IO, head: string[] | undefined, rows: string[][]): Promise<string> {
  const [{ default: Table }, { Chalk }] = await Promise.all([import('cli-table3'), import('chalk')]);
  const chalk = new Chalk({ level: io.color ? 1 : 0 });
  const t = new Table({
    head: head?.map((h) => chalk.bold(h)) ?? [],
    style: { head: [], border: io.color ? ['grey'] : [] },
    wordWrap: false,
  });
  for (const row of rows) t.push(head ? row : [chalk.bold(row[0] ?? ''), row[1] ?? '']);
  return t.toString();
}
