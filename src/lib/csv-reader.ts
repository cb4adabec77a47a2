/**
 * merch's CSV reader (RFC 4180): the recipients lists of `orders create` and the results
 * files `orders track` reads back.
 *
 * - Fields are separated by commas; a record ends at CRLF, LF or CR, each of them anywhere
 *   in the file (a list saved on Windows that a script appended LF lines to reads as it
 *   looks); a line end at the end of the text does not start another record. An empty
 *   line is a record of one empty field.
 * - A field that starts with a quote is quoted: it may hold commas, line breaks and quotes
 *   (written twice), and its closing quote is followed by a comma, a line end or the end
 *   of the text. A quote anywhere else (inside an unquoted value, after a space) is an
 *   error, as is a quoted value that is never closed: a list read wrongly would send
 *   parcels to the wrong places, so the reader stops rather than guess.
 * - A byte order mark at the start is skipped; records may have any number of fields.
 * - Bytes are read as UTF-8 (a malformed sequence reads as U+FFFD, as Buffer#toString
 *   reads it), the byte order mark left out before they are decoded: text decoded with it
 *   is held by V8 at two bytes a character, and so is every value sliced from it (on Node
 *   22 and later, every value of 13 characters or more), the JSON made of those values and
 *   the text carried from one piece to the next, so a whole list (and a dry run's printed
 *   order) would be twice its size: ~40 ms more CPU for a list of 10,000 rows saved by a
 *   spreadsheet with the mark, on Node 20 (bench/README.md, issue 32.3).
 *
 * It is csv-parse's reading with the options merch used (`bom`, `relax_column_count`),
 * except that every line end counts, not only the first kind the file uses:
 * test/lib/csv-reader.test.ts holds the two together on generated files. csv-parse, which
 * reads byte by byte through many small functions, spent 17-24 us a row on a first list of
 * 10,000 rows read as a stream, before V8 had optimised it; this reader finds each line with
 * indexOf and splits the lines without a quote with String#split, and reads the same list
 * in ~3 us a row (bench/README.md, issue 32.3).
 */

export class CsvSyntaxError extends Error {
  constructor(
    /** The record it is in, counting from 1 (a quoted line break does not start one). */
    readonly record: number,
    /** Its field, counting from 1. */
    readonly field: number,
    detail: string,
  ) {
    super(`field ${field} ${detail}`);
    this.name = 'CsvSyntaxError';
  }
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
const BOM = '\uFEFF';

/** One record read from `at`, and where the next one starts; undefined: the text ends before the record is known to be whole. */
type Read = { fields: string[]; next: number } | undefined;

/** Reads CSV text or UTF-8 bytes given in pieces (a file read as a stream), record by record. */
export class CsvReader {
  private rest = '';
  private started = false;
  /** Records completed so far. */
  private count = 0;
  /** Decodes the pieces given as bytes; a character cut between two pieces waits for the next. */
  private readonly decoder = new TextDecoder();

  /** The records this piece completes (a record cut by the piece's end waits for the next). Give all pieces as text, or all as bytes. */
  push(piece: string | Uint8Array): string[][] {
    return this.read(this.rest + (typeof piece === 'string' ? piece : this.decoder.decode(piece, { stream: true })), false);
  }

  /** The last records, at the end of the text. */
  end(): string[][] {
    return this.read(this.rest + this.decoder.decode(), true);
  }

  private read(text: string, final: boolean): string[][] {
    let at = 0;
    if (!this.started && (text.length > 0 || final)) {
      this.started = true;
      if (text.startsWith(BOM)) at = 1;
    }
    const records: string[][] = [];
    // The next LF at or after `at` (the text's length: none), found once for all the records before it.
    let lf = -1;
    while (at < text.length) {
      if (lf < at) {
        lf = text.indexOf('\n', at);
        if (lf === -1) lf = text.length;
      }
      const read = (lf < text.length ? plainLine(text, at, lf) : undefined) ?? this.record(text, at, final);
      if (read === undefined) break;
      records.push(read.fields);
      this.count++;
      at = read.next;
    }
    this.rest = text.slice(at);
    return records;
  }

  /** Any record from `at`: quoted fields, and CR alone as a line end. */
  private record(text: string, from: number, final: boolean): Read {
    const fields: string[] = [];
    const fail = (detail: string) => new CsvSyntaxError(this.count + 1, fields.length + 1, detail);
    let at = from;
    for (;;) {
      let end: number;
      if (text.charCodeAt(at) === QUOTE) {
        let value = '';
        let from = at + 1;
        for (;;) {
          const quote = text.indexOf('"', from);
          if (quote === -1 || (quote + 1 === text.length && !final)) {
            if (final) throw fail('opens a quote that is never closed (a quote inside a quoted value is written twice: "")');
            return undefined;
          }
          if (text.charCodeAt(quote + 1) === QUOTE) {
            value += text.slice(from, quote + 1);
            from = quote + 2;
            continue;
          }
          value += text.slice(from, quote);
          end = quote + 1;
          break;
        }
        const next = text.charCodeAt(end);
        if (end < text.length && next !== COMMA && next !== LF && next !== CR) {
          // What follows the quote, up to the field's end (the next character is neither a comma nor a line end: one at least).
          const after = /^[^,\r\n]{1,20}/.exec(text.slice(end, end + 20))![0];
          throw fail(`has text after its closing quote (${JSON.stringify(after)}); a quote inside a quoted value is written twice ("")`);
        }
        fields.push(value);
      } else {
        end = at;
        for (; end < text.length; end++) {
          const c = text.charCodeAt(end);
          if (c === COMMA || c === LF || c === CR) break;
          if (c === QUOTE) throw fail('has a quote inside a value that does not start with one; quote the whole value ("...") and write each quote inside it twice');
        }
        fields.push(text.slice(at, end));
      }
      if (end === text.length) return final ? { fields, next: end } : undefined;
      const c = text.charCodeAt(end);
      if (c === COMMA) {
        at = end + 1;
        continue;
      }
      if (c === LF) return { fields, next: end + 1 };
      // CR: with the LF after it, or alone; the text's end may yet bring the LF.
      if (end + 1 === text.length && !final) return undefined;
      return { fields, next: text.charCodeAt(end + 1) === LF ? end + 2 : end + 1 };
    }
  }
}

/** The record from `at` when it is the line up to the LF at `lf` (or CRLF) with no quote and no other CR in it (the common case), else undefined. */
function plainLine(text: string, at: number, lf: number): Read {
  const end = lf > at && text.charCodeAt(lf - 1) === CR ? lf - 1 : lf;
  const line = text.slice(at, end);
  if (line.includes('"') || line.includes('\r')) return undefined;
  return { fields: line.split(','), next: lf + 1 };
}

/** The records of a whole CSV text, or of its UTF-8 bytes. Throws CsvSyntaxError. */
export function readCsv(text: string | Uint8Array): string[][] {
  const reader = new CsvReader();
  const records = reader.push(text);
  for (const record of reader.end()) records.push(record);
  return records;
}
