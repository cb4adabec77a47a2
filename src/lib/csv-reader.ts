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
 * - Limits, where the caller asks for them (CsvReaderOptions; a recipients list does): a
 *   field or a record longer than stated, and control characters (NUL bytes, escape
 *   sequences), are errors naming the record and field, found as soon as they are read.
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
    /** What is wrong, after `field N `. */
    readonly detail: string,
    /** What is wrong: the CSV's syntax, a field or record too long, a control character. */
    readonly kind: 'syntax' | 'too-long' | 'control' = 'syntax',
    /** The text's first record (a header), when the error is in a later one: to name the field by its column. */
    readonly header?: readonly string[],
  ) {
    super(`field ${field} ${detail}`);
    this.name = 'CsvSyntaxError';
  }
}

/** What a reader refuses besides malformed quotes (none of it by default). */
export interface CsvReaderOptions {
  /** The longest field, in characters (UTF-16 code units): a longer one is a CsvSyntaxError as soon as it is seen, not read to its end. */
  maxFieldLength?: number;
  /** The longest record, in characters (its fields and the commas between them). */
  maxRecordLength?: number;
  /**
   * Refuse a field holding a control character: C0 (NUL, ESC ...) but tab, and line breaks
   * inside a quoted field; DEL; C1 (U+0080 to U+009F, CSI among them). They are found in each
   * piece with one search; only a piece that holds one is looked at field by field.
   */
  refuseControls?: boolean;
}

/** The limits of a recipients list (docs/orders.md): a cell of 64 KiB characters; a row of 1 MiB. */
export const MAX_FIELD_LENGTH = 65_536;
export const MAX_RECORD_LENGTH = 1_048_576;

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
const BOM = '\uFEFF';
/** The control characters refused with `refuseControls`: C0 but tab, LF and CR (line breaks are the CSV's own, or a quoted field's), DEL, C1. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const CONTROL_NAMES: Record<number, string> = { 0x00: 'NUL', 0x07: 'BEL', 0x08: 'BS', 0x0b: 'VT', 0x0c: 'FF', 0x1b: 'ESC', 0x7f: 'DEL', 0x9b: 'CSI' };

/** Where the reader is in the record it reads. */
const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
/** After a field: a comma, a line end or the end of the text comes next. */
const FIELD_END = 3;
type Place = typeof FIELD_START | typeof UNQUOTED | typeof QUOTED | typeof FIELD_END;

/**
 * Reads CSV text or UTF-8 bytes given in pieces (a file read as a stream), record by record.
 *
 * Linear in the text's length: a record cut by a piece's end is read on from where the piece
 * ended (its fields and the pieces of the field being read are kept; the text kept from one
 * piece to the next is at most the one character a decision waits on, a quote or a CR), so a
 * field of 20 MB given in 64 KiB pieces is read once, not again from its start at each
 * piece (which took 31 s; issue 41.6).
 */
export class CsvReader {
  private rest = '';
  private started = false;
  /** Records completed so far. */
  private count = 0;
  /** Decodes the pieces given as bytes; a character cut between two pieces waits for the next. */
  private readonly decoder = new TextDecoder();
  private readonly maxField: number;
  private readonly maxRecord: number;
  private readonly controls: boolean;
  /** The first record, once read. */
  private header: string[] | undefined;
  /** The record being read: its fields so far, the pieces of the field being read, and where in it the reader is. */
  private fields: string[] = [];
  private parts: string[] = [];
  private fieldLength = 0;
  private recordLength = 0;
  private place: Place = FIELD_START;
  /** The last step stopped where the text ends before what comes next is known. */
  private waiting = false;

  constructor(options: CsvReaderOptions = {}) {
    this.maxField = options.maxFieldLength ?? Number.POSITIVE_INFINITY;
    this.maxRecord = options.maxRecordLength ?? Number.POSITIVE_INFINITY;
    this.controls = options.refuseControls ?? false;
  }

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
    // One search of the whole piece; only a piece with a control character is looked at field by field.
    const suspect = this.controls && CONTROL.test(text);
    const lineLimit = Math.min(this.maxField, this.maxRecord);
    // The next LF at or after `at` (the text's length: none), found once for all the records before it.
    let lf = -1;
    for (;;) {
      if (this.place === FIELD_START && this.fields.length === 0) {
        // A record's start: the end of the text is no record.
        if (at >= text.length) break;
        if (lf < at) {
          lf = text.indexOf('\n', at);
          if (lf === -1) lf = text.length;
        }
        const fields = lf < text.length ? plainLine(text, at, lf) : undefined;
        if (fields !== undefined) {
          if (suspect || lf - at > lineLimit) this.checkLine(fields, suspect);
          this.complete(records, fields);
          at = lf + 1;
          continue;
        }
        // A record with quotes or a CR alone, read whole when the text holds all of it; else
        // read on field by field from its start (once: its state is then kept across pieces).
        const read = this.wholeRecord(text, at, final, lineLimit, suspect);
        if (read !== undefined) {
          this.complete(records, read.fields);
          at = read.next;
          continue;
        }
      }
      this.waiting = false;
      at = this.step(text, at, final, records, suspect);
      if (this.waiting) break;
    }
    this.rest = text.slice(at);
    return records;
  }

  /** One move through the record from `at`: a field's start, its text, or what follows it; returns where the next starts (with `waiting` set: where the text must go on). */
  private step(text: string, at: number, final: boolean, records: string[][], suspect: boolean): number {
    switch (this.place) {
      case FIELD_START: {
        if (at === text.length) {
          if (!final) return this.wait(at);
          // `a,` at the end of the text: an empty last field.
          this.finishField();
          this.place = FIELD_END;
          return at;
        }
        if (text.charCodeAt(at) === QUOTE) {
          this.place = QUOTED;
          return at + 1;
        }
        this.place = UNQUOTED;
        return at;
      }
      case UNQUOTED: {
        // To a comma or a line end, looking no further than the field may be long.
        const stop = Math.min(text.length, at + (this.maxField - this.fieldLength) + 1);
        let end = at;
        for (; end < stop; end++) {
          const c = text.charCodeAt(end);
          if (c === COMMA || c === LF || c === CR) break;
          if (c === QUOTE) throw this.error('has a quote inside a value that does not start with one; quote the whole value ("...") and write each quote inside it twice');
        }
        this.addPart(text, at, end, suspect, false);
        if (end === text.length && !final) return this.wait(end);
        this.finishField();
        this.place = FIELD_END;
        return end;
      }
      case QUOTED: {
        const quote = text.indexOf('"', at);
        if (quote === -1 || (quote + 1 === text.length && !final)) {
          if (final) throw this.error('opens a quote that is never closed (a quote inside a quoted value is written twice: "")');
          // The text so far is the field's; a quote at the very end waits to know whether another follows it.
          const end = quote === -1 ? text.length : quote;
          this.addPart(text, at, end, suspect, true);
          return this.wait(end);
        }
        if (text.charCodeAt(quote + 1) === QUOTE) {
          this.addPart(text, at, quote + 1, suspect, true);
          return quote + 2;
        }
        this.addPart(text, at, quote, suspect, true);
        this.finishField();
        this.place = FIELD_END;
        return quote + 1;
      }
      case FIELD_END: {
        if (at === text.length) {
          if (!final) return this.wait(at);
          this.complete(records, this.takeFields());
          return at;
        }
        const c = text.charCodeAt(at);
        if (c === COMMA) {
          if (++this.recordLength > this.maxRecord) throw this.recordTooLong(this.fields.length + 1);
          this.place = FIELD_START;
          return at + 1;
        }
        if (c === LF) {
          this.complete(records, this.takeFields());
          return at + 1;
        }
        if (c === CR) {
          // With the LF after it, or alone; the text's end may yet bring the LF.
          if (at + 1 === text.length && !final) return this.wait(at);
          this.complete(records, this.takeFields());
          return text.charCodeAt(at + 1) === LF ? at + 2 : at + 1;
        }
        // Only a closing quote is followed by anything else. What follows it, up to the field's end.
        const after = /^[^,\r\n]{1,20}/.exec(text.slice(at, at + 20))![0];
        throw new CsvSyntaxError(this.count + 1, this.fields.length, `has text after its closing quote (${JSON.stringify(after)}); a quote inside a quoted value is written twice ("")`, 'syntax', this.header);
      }
    }
  }

  /**
   * The record from `at` when the text holds the whole of it, read in one go (the common
   * case of a record with a quoted field); undefined when the text ends first, or the record
   * is longer than `limit` (the field-by-field reading then finds where), so that no record
   * is read from its start more than twice.
   */
  private wholeRecord(text: string, from: number, final: boolean, limit: number, suspect: boolean): { fields: string[]; next: number } | undefined {
    const fields: string[] = [];
    const stop = Math.min(text.length, from + limit + 3);
    let at = from;
    for (;;) {
      let end: number;
      if (text.charCodeAt(at) === QUOTE) {
        let value = '';
        let start = at + 1;
        for (;;) {
          const quote = text.indexOf('"', start);
          if (quote === -1 || quote + 1 >= stop) {
            if (final && quote === -1 && stop === text.length) throw this.syntax(fields.length + 1, 'opens a quote that is never closed (a quote inside a quoted value is written twice: "")');
            return undefined;
          }
          if (text.charCodeAt(quote + 1) === QUOTE) {
            value += text.slice(start, quote + 1);
            start = quote + 2;
            continue;
          }
          value += text.slice(start, quote);
          end = quote + 1;
          break;
        }
        const next = text.charCodeAt(end);
        if (end < text.length && next !== COMMA && next !== LF && next !== CR) {
          const after = /^[^,\r\n]{1,20}/.exec(text.slice(end, end + 20))![0];
          throw this.syntax(fields.length + 1, `has text after its closing quote (${JSON.stringify(after)}); a quote inside a quoted value is written twice ("")`);
        }
        if (suspect) this.checkControls(value, fields.length + 1);
        fields.push(value);
      } else {
        end = at;
        for (; end < stop; end++) {
          const c = text.charCodeAt(end);
          if (c === COMMA || c === LF || c === CR) break;
          if (c === QUOTE) throw this.syntax(fields.length + 1, 'has a quote inside a value that does not start with one; quote the whole value ("...") and write each quote inside it twice');
        }
        if (end === stop && stop < text.length) return undefined;
        const value = text.slice(at, end);
        if (suspect) this.checkControls(value, fields.length + 1);
        fields.push(value);
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

  private syntax(field: number, detail: string): CsvSyntaxError {
    return new CsvSyntaxError(this.count + 1, field, detail, 'syntax', this.header);
  }

  private wait(at: number): number {
    this.waiting = true;
    return at;
  }

  /** Adds text[from, to) to the field being read, within the limits. */
  private addPart(text: string, from: number, to: number, suspect: boolean, quoted: boolean): void {
    const length = to - from;
    if (length === 0) return;
    this.fieldLength += length;
    this.recordLength += length;
    if (this.fieldLength > this.maxField) throw this.fieldTooLong(this.fields.length + 1, quoted);
    if (this.recordLength > this.maxRecord) throw this.recordTooLong(this.fields.length + 1);
    const part = text.slice(from, to);
    if (suspect) this.checkControls(part, this.fields.length + 1);
    this.parts.push(part);
  }

  private finishField(): void {
    const { parts } = this;
    this.fields.push(parts.length === 1 ? parts[0]! : parts.join(''));
    parts.length = 0;
    this.fieldLength = 0;
  }

  private takeFields(): string[] {
    const { fields } = this;
    this.fields = [];
    this.recordLength = 0;
    this.place = FIELD_START;
    return fields;
  }

  private complete(records: string[][], fields: string[]): void {
    records.push(fields);
    this.count++;
    this.header ??= fields;
  }

  /** A line read whole whose length may pass a limit, or that may hold a control character: its fields in order. */
  private checkLine(fields: readonly string[], suspect: boolean): void {
    let length = 0;
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i]!;
      length += field.length + (i > 0 ? 1 : 0);
      if (field.length > this.maxField) throw this.fieldTooLong(i + 1, false);
      if (length > this.maxRecord) throw this.recordTooLong(i + 1);
      if (suspect) this.checkControls(field, i + 1);
    }
  }

  private checkControls(text: string, field: number): void {
    const found = CONTROL.exec(text);
    if (found === null) return;
    const code = found[0].charCodeAt(0);
    const name = `U+${code.toString(16).toUpperCase().padStart(4, '0')}${CONTROL_NAMES[code] === undefined ? '' : ` ${CONTROL_NAMES[code]}`}`;
    throw new CsvSyntaxError(
      this.count + 1,
      field,
      `holds a control character (${name}): merch sends no NUL bytes, escape sequences or other control characters; fix the cell (a tab, and a line break inside a quoted cell, are allowed)`,
      'control',
      this.header,
    );
  }

  private fieldTooLong(field: number, quoted: boolean): CsvSyntaxError {
    const why = quoted ? ' (a quote that is never closed?)' : '';
    return new CsvSyntaxError(this.count + 1, field, `is longer than ${this.maxField.toLocaleString('en-US')} characters${why}`, 'too-long', this.header);
  }

  private recordTooLong(field: number): CsvSyntaxError {
    return new CsvSyntaxError(this.count + 1, field, `ends a row longer than ${this.maxRecord.toLocaleString('en-US')} characters`, 'too-long', this.header);
  }

  private error(detail: string): CsvSyntaxError {
    return new CsvSyntaxError(this.count + 1, this.fields.length + 1, detail, 'syntax', this.header);
  }
}

/** The fields of the line from `at` to the LF at `lf` (or CRLF) when it has no quote and no other CR (the common case), else undefined. */
function plainLine(text: string, at: number, lf: number): string[] | undefined {
  const end = lf > at && text.charCodeAt(lf - 1) === CR ? lf - 1 : lf;
  const line = text.slice(at, end);
  if (line.includes('"') || line.includes('\r')) return undefined;
  return line.split(',');
}

/** The records of a whole CSV text, or of its UTF-8 bytes. Throws CsvSyntaxError. */
export function readCsv(text: string | Uint8Array, options: CsvReaderOptions = {}): string[][] {
  const reader = new CsvReader(options);
  const records = reader.push(text);
  for (const record of reader.end()) records.push(record);
  return records;
}
