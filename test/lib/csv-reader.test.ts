import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { serialize } from 'node:v8';
import { describe, expect, test } from 'vitest';
import { CsvReader, CsvSyntaxError, MAX_FIELD_LENGTH, MAX_RECORD_LENGTH, readCsv } from '../../src/lib/csv-reader.js';

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

// Issue 41.6: odd inputs end. A field longer than the limit is refused as soon as it is
// seen; control characters are refused naming their record and field; a field cut across
// many pieces is read once (the reader before read a cut record again from its start at each
// piece: a field of 20 MB took 31 s; bench/csv-field.mjs holds the scaling).
describe('limits and control characters', () => {
  const PIECE = 65_536;

  /** The error a reading throws, as record, field, kind and detail. */
  function refusal(read: () => unknown): { record: number; field: number; kind: string; detail: string } {
    try {
      read();
    } catch (error) {
      if (!(error instanceof CsvSyntaxError)) throw error;
      return { record: error.record, field: error.field, kind: error.kind, detail: error.detail };
    }
    throw new Error('expected a CsvSyntaxError');
  }

  test('a field of 20 MB is refused within the first pieces of 64 KiB, not read to its end', () => {
    for (const quoted of [false, true]) {
      const reader = new CsvReader({ maxFieldLength: MAX_FIELD_LENGTH });
      const head = Buffer.from(`name,city\nAnn,${quoted ? '"' : ''}`);
      const piece = Buffer.alloc(PIECE, 'x');
      let pieces = 0;
      const found = refusal(() => {
        reader.push(head);
        for (; pieces < 20_000_000 / PIECE; pieces++) reader.push(piece);
      });
      expect(found).toEqual({ record: 2, field: 2, kind: 'too-long', detail: `is longer than 65,536 characters${quoted ? ' (a quote that is never closed?)' : ''}` });
      expect(pieces, 'pieces given before the refusal').toBeLessThanOrEqual(2);
    }
  });

  test('a field of 20 MB given as one text is refused too, naming its record and field', () => {
    const text = `a,b\n1,${'y'.repeat(20_000_000)}\n`;
    expect(refusal(() => readCsv(text, { maxFieldLength: MAX_FIELD_LENGTH }))).toMatchObject({ record: 2, field: 2, kind: 'too-long' });
    expect(refusal(() => readCsv(`a,b\n1,"${'y'.repeat(20_000_000)}"\n`, { maxFieldLength: MAX_FIELD_LENGTH }))).toMatchObject({ record: 2, field: 2, kind: 'too-long' });
  });

  test('a field at the limit reads; one character more is refused; a row past its own limit too', () => {
    const at = 'z'.repeat(MAX_FIELD_LENGTH);
    expect(readCsv(`a\n${at}\n"${at}"\n`, { maxFieldLength: MAX_FIELD_LENGTH })).toEqual([['a'], [at], [at]]);
    expect(refusal(() => readCsv(`a\n"${at}z"\n`, { maxFieldLength: MAX_FIELD_LENGTH }))).toMatchObject({ record: 2, field: 1 });
    const row = Array.from({ length: 20 }, () => 'w'.repeat(60_000)).join(',');
    expect(refusal(() => readCsv(`a\n${row}\n`, { maxFieldLength: MAX_FIELD_LENGTH, maxRecordLength: MAX_RECORD_LENGTH }))).toEqual({
      record: 2,
      field: 18,
      kind: 'too-long',
      detail: 'ends a row longer than 1,048,576 characters',
    });
    // Without limits (the default), anything reads.
    expect(readCsv(`a\n${at}zz\n`)[1]![0]!.length).toBe(MAX_FIELD_LENGTH + 2);
  });

  test('a field cut across hundreds of pieces is read once: the text carried from one piece to the next stays at most a character', () => {
    for (const field of ['x'.repeat(4 << 20), `"${'x'.repeat(2 << 20)}""${'y'.repeat(2 << 20)}"`]) {
      const reader = new CsvReader();
      const bytes = Buffer.from(`name,city\n${field},Oslo\n`);
      let carried = 0;
      const records: string[][] = [];
      for (let at = 0; at < bytes.length; at += PIECE) {
        records.push(...reader.push(bytes.subarray(at, at + PIECE)));
        carried = Math.max(carried, (reader as unknown as { rest: string }).rest.length);
      }
      records.push(...reader.end());
      expect(carried).toBeLessThanOrEqual(1);
      expect(records.map((r) => [r[0]!.length, r[1]])).toEqual([
        [4, 'city'],
        [field.startsWith('"') ? (4 << 20) + 1 : 4 << 20, 'Oslo'],
      ]);
    }
  });

  test('control characters are refused naming their record and field: NUL, ESC, DEL, C1; tab and quoted line breaks are not', () => {
    const options = { refuseControls: true };
    expect(refusal(() => readCsv('a,b\n1,x\u0000y\n', options))).toEqual({
      record: 2,
      field: 2,
      kind: 'control',
      detail: 'holds a control character (U+0000 NUL): merch sends no NUL bytes, escape sequences or other control characters; fix the cell (a tab, and a line break inside a quoted cell, are allowed)',
    });
    expect(refusal(() => readCsv('a,b\n1,2\n"\u001b[31mred",3\n', options))).toMatchObject({ record: 3, field: 1, detail: expect.stringContaining('U+001B ESC') });
    expect(refusal(() => readCsv('a,b\n1,2\u007f\n', options))).toMatchObject({ record: 2, field: 2, detail: expect.stringContaining('U+007F DEL') });
    expect(refusal(() => readCsv('a,\u009b2J\n', options))).toMatchObject({ record: 1, field: 2, detail: expect.stringContaining('U+009B CSI') });
    expect(refusal(() => readCsv(Buffer.from('a,b\n1,"x\u0007"\n'), options))).toMatchObject({ record: 2, field: 2, detail: expect.stringContaining('U+0007 BEL') });
    expect(readCsv('a,b\n1\t2,"x\r\ny\tz"\n', options)).toEqual([['a', 'b'], ['1\t2', 'x\r\ny\tz']]);
    // Not asked for: read as they are.
    expect(readCsv('a\nx\u0000\n')).toEqual([['a'], ['x\u0000']]);
  });

  test('a control character is found wherever the pieces cut the text, in the same record and field', () => {
    fc.assert(
      fc.property(fc.oneof(written.map((w) => w.text), anyText), fc.nat(200), fc.constantFrom('\u0000', '\u001b', '\u009b'), fc.array(fc.nat(80), { maxLength: 6 }), (text, place, control, cuts) => {
        const at = place % (text.length + 1);
        const bad = text.slice(0, at) + control + text.slice(at);
        const whole = outcome(
          () => readCsv(bad, { refuseControls: true }),
          (error) => (error as CsvSyntaxError).record * 1000 + (error as CsvSyntaxError).field,
        );
        const reader = new CsvReader({ refuseControls: true });
        const pieces = outcome(
          () => {
            const records: string[][] = [];
            let from = 0;
            for (const cut of [...cuts].sort((a, b) => a - b)) {
              records.push(...reader.push(Buffer.from(bad.slice(from, Math.max(from, cut)))));
              from = Math.max(from, cut);
            }
            return [...records, ...reader.push(Buffer.from(bad.slice(from))), ...reader.end()];
          },
          (error) => (error as CsvSyntaxError).record * 1000 + (error as CsvSyntaxError).field,
        );
        expect(pieces).toEqual(whole);
      }),
      { numRuns: 2000 },
    );
  });
});
