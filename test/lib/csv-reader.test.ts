import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { serialize } from 'node:v8';
import { describe, expect, test } from 'vitest';
import { CsvReader, CsvSyntaxError, readCsv } from '../../src/lib/csv-reader.js';

/** csv-parse, with the options merch read its CSVs with before its own reader: the oracle. */
function csvParse(text: string): string[][] {
  return parse(text, { bom: true, relax_column_count: true, skip_empty_lines: false }) as string[][];
}

/** What a reader makes of a text: its records, or the record (from 1) its error is in. */
function outcome(read: () => string[][], recordOfError: (error: unknown) => number): { records: string[][] } | { error: number } {
  try {
    return { records: read() };
  } catch (error) {
    return { error: recordOfError(error) };
  }
}

const ours = (text: string) =>
  outcome(
    () => readCsv(text),
    (error) => {
      if (!(error instanceof CsvSyntaxError)) throw error;
      return error.record;
    },
  );
// csv-parse counts the records it completed: the bad one is the next.
const theirs = (text: string) => outcome(() => csvParse(text), (error) => (error as { records: number }).records + 1);

/** The text (or bytes) given to a reader in pieces cut at these offsets. */
function inPieces(text: string | Uint8Array, cuts: number[]): string[][] {
  const reader = new CsvReader();
  const records: string[][] = [];
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    records.push(...reader.push(text.slice(from, Math.max(from, cut))));
    from = Math.max(from, cut);
  }
  records.push(...reader.push(text.slice(from)), ...reader.end());
  return records;
}

/** Whether V8 holds this string at two bytes a character (v8.serialize writes such a string with the tag 'c', a one-byte one with '"'). */
const heldTwoBytesACharacter = (value: string) => serialize(value)[2] === 'c'.charCodeAt(0);

const LINE_ENDS = ['\n', '\r\n', '\r'] as const;

/** A field's value: mostly plain, sometimes with what needs quoting. */
const value = fc.stringMatching(/^[a-zé ,"\n\r1]{0,6}$/);

/** Records written as a CSV program would: quoted when needed (or always), one kind of line end, a BOM or not, a line end at the end or not. */
const written = fc
  .record({
    records: fc.array(fc.array(value, { minLength: 1, maxLength: 5 }), { minLength: 0, maxLength: 8 }),
    lineEnd: fc.constantFrom(...LINE_ENDS),
    quoteAll: fc.boolean(),
    bom: fc.boolean(),
    endsWithLineEnd: fc.boolean(),
  })
  .map(({ records, lineEnd, quoteAll, bom, endsWithLineEnd }) => {
    const field = (v: string) => (quoteAll || /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
    const body = records.map((r) => r.map(field).join(',')).join(lineEnd);
    return { records, quoteAll, endsWithLineEnd, text: `${bom ? '\uFEFF' : ''}${body}${endsWithLineEnd && records.length > 0 ? lineEnd : ''}` };
  });

/** Any text of these characters, line ends of one kind (csv-parse keeps to the first kind it meets). */
const anyText = fc
  .record({ chars: fc.array(fc.constantFrom('a', ' ', ',', '"', '\u0000'), { maxLength: 40 }), lineEnd: fc.constantFrom(...LINE_ENDS) })
  .map(({ chars, lineEnd }) => chars.join('').replaceAll('\u0000', lineEnd));

describe('readCsv', () => {
  test('a BOM, CRLF, a quoted comma, line break and quote, an empty line, a trailing comma, no line end at the end', () => {
    const text = '\uFEFFname,line_1\r\nAnn,"1 Main St, Apt 2"\r\n"Bo ""B"" Ek","x\r\ny"\r\n\r\nCy,\r\nDi,z';
    expect(readCsv(text)).toEqual([['name', 'line_1'], ['Ann', '1 Main St, Apt 2'], ['Bo "B" Ek', 'x\r\ny'], [''], ['Cy', ''], ['Di', 'z']]);
  });

  test('every line end counts wherever it is: CRLF lines with LF lines appended, CR alone', () => {
    expect(readCsv('a,b\r\n1,2\r\n3,4\n5,6\r7,8\n')).toEqual([['a', 'b'], ['1', '2'], ['3', '4'], ['5', '6'], ['7', '8']]);
    // csv-parse took the first kind of line end for the only one: 3,4 and 5,6 ran together
    expect(csvParse('a,b\r\n1,2\r\n3,4\n5,6\r\n')[2]).toEqual(['3', '4\n5', '6']);
  });

  test('an empty text has no records; a BOM alone neither', () => {
    expect(readCsv('')).toEqual([]);
    expect(readCsv('\uFEFF')).toEqual([]);
    expect(readCsv('\n')).toEqual([['']]);
  });

  test('a malformed quote names its record and field, as the spreadsheet shows them', () => {
    const failure = (text: string) => {
      try {
        readCsv(text);
      } catch (error) {
        expect(error).toBeInstanceOf(CsvSyntaxError);
        const { record, field, message } = error as CsvSyntaxError;
        return { record, field, message };
      }
      throw new Error('expected a CsvSyntaxError');
    };
    expect(failure('a,b\n1,"2"x,3\n')).toEqual({ record: 2, field: 2, message: 'field 2 has text after its closing quote ("x"); a quote inside a quoted value is written twice ("")' });
    expect(failure('a,b\n"1\n2",3\n4, "5"\n')).toEqual({ record: 3, field: 2, message: 'field 2 has a quote inside a value that does not start with one; quote the whole value ("...") and write each quote inside it twice' });
    expect(failure('a,b\n1,2"\n')).toMatchObject({ record: 2, field: 2 });
    expect(failure('a,b\n1,"2\n3,4\n')).toEqual({ record: 2, field: 2, message: 'field 2 opens a quote that is never closed (a quote inside a quoted value is written twice: "")' });
  });

  test('records written by a CSV program read back as they were, and as csv-parse reads them', () => {
    fc.assert(
      fc.property(written, ({ records, quoteAll, endsWithLineEnd, text }) => {
        const read = readCsv(text);
        expect(read).toEqual(csvParse(text));
        // An unquoted empty last record without a line end after it is no record.
        const last = records.at(-1);
        const vanishes = !quoteAll && !endsWithLineEnd && last !== undefined && last.length === 1 && last[0] === '';
        expect(read).toEqual(vanishes ? records.slice(0, -1) : records);
      }),
      { numRuns: 3000 },
    );
  });

  test('any text reads as csv-parse reads it: the same records, or an error in the same record', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(ours(text)).toEqual(theirs(text));
      }),
      { numRuns: 5000 },
    );
  });

  test('a text given in pieces, cut anywhere (inside a quote, between CR and LF, in the BOM\'s place), reads as the whole text', () => {
    fc.assert(
      fc.property(fc.oneof(written.map((w) => w.text), anyText), fc.array(fc.nat(60), { maxLength: 6 }), (text, cuts) => {
        const whole = ours(text);
        const pieces = outcome(
          () => inPieces(text, cuts),
          (error) => (error as CsvSyntaxError).record,
        );
        expect(pieces).toEqual(whole);
      }),
      { numRuns: 3000 },
    );
  });

  test('UTF-8 bytes given in pieces, cut anywhere (inside a character, inside the BOM), read as their text', () => {
    fc.assert(
      fc.property(fc.oneof(written.map((w) => w.text), anyText), fc.array(fc.nat(60), { maxLength: 6 }), (text, cuts) => {
        const bytes = Buffer.from(text, 'utf8');
        const whole = ours(text);
        expect(outcome(() => readCsv(bytes), (error) => (error as CsvSyntaxError).record)).toEqual(whole);
        expect(outcome(() => inPieces(bytes, cuts), (error) => (error as CsvSyntaxError).record)).toEqual(whole);
      }),
      { numRuns: 3000 },
    );
  });

  test('bytes with a BOM: the values are held one byte a character (text decoded with the mark would make every value two), and é stays é', () => {
    const bytes = Buffer.from('\uFEFFname,city\r\nAnn,Tromsø\r\nRené Éclair-Lindqvist,Oslo\r\n', 'utf8');
    const records = readCsv(bytes);
    expect(records).toEqual([
      ['name', 'city'],
      ['Ann', 'Tromsø'],
      ['René Éclair-Lindqvist', 'Oslo'],
    ]);
    for (const value of records.flat()) expect(heldTwoBytesACharacter(value), value).toBe(false);
    // the check itself: a value sliced from text that holds the mark is held two bytes a
    // character (on Node 22 and later, a value of 13 characters or more: V8 copies shorter ones)
    expect(heldTwoBytesACharacter('\uFEFFname,1 Main Street, Apt 2'.slice(1))).toBe(true);
    // a malformed sequence reads as U+FFFD, as Buffer#toString reads it
    expect(readCsv(Buffer.from([0x61, 0xff, 0x2c, 0x62]))).toEqual([[Buffer.from([0x61, 0xff]).toString('utf8'), 'b']]);
  });
});
