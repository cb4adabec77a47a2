import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CsvError, parseRecipientsCsv, readRecipientBatches, type RecipientRow } from '../../../src/orders/create/recipients-csv.js';
import { tempDir } from '../../support/temp-dir.js';

const HEADER = 'first_name,last_name,email,line_1,city,state,postal_code,country';

function csvError(text: string | Buffer): CsvError {
  try {
    parseRecipientsCsv(text, 'recipients.csv');
  } catch (err) {
    expect(err).toBeInstanceOf(CsvError);
    return err as CsvError;
  }
  throw new Error('expected a CsvError');
}

describe('parseRecipientsCsv', () => {
  test('UTF-8 with a BOM, CRLF line ends and a quoted comma', () => {
    const text = `\uFEFF${HEADER},size\r\nAnn,Lee,ann@example.com,"1 Main St, Apt 2",Oslo,OS,0150,NO,M\r\nBo,Ek,,2 High St,Bergen,VL,5003,NO,L\r\n`;
    const csv = parseRecipientsCsv(Buffer.from(text, 'utf8'), 'recipients.csv');
    expect(csv.attributeColumns).toEqual(['size']);
    expect(csv.rows).toEqual([
      {
        row: 2,
        recipient: {
          first_name: 'Ann',
          last_name: 'Lee',
          email: 'ann@example.com',
          line_1: '1 Main St, Apt 2',
          city: 'Oslo',
          state: 'OS',
          postal_code: '0150',
          country: 'NO',
        },
        attributes: { size: 'M' },
      },
      {
        row: 3,
        recipient: { first_name: 'Bo', last_name: 'Ek', line_1: '2 High St', city: 'Bergen', state: 'VL', postal_code: '5003', country: 'NO' },
        attributes: { size: 'L' },
      },
    ]);
    // the BOM did not leak into the first header name
    expect(Object.keys(csv.rows[0]!.recipient)[0]).toBe('first_name');
  });

  test('header names are normalised; quantity and product columns are read as numbers', () => {
    const text = 'First Name,Last-Name,Line 1,City,State,Postal Code,Country,Quantity,Product,Color\nAnn,Lee,x,Oslo,OS,1,NO,3,42,Navy\n';
    const csv = parseRecipientsCsv(text, 'r.csv');
    expect(csv.hasQuantity).toBe(true);
    expect(csv.hasProduct).toBe(true);
    expect(csv.attributeColumns).toEqual(['color']);
    expect(csv.rows[0]).toMatchObject({ quantity: 3, product: 42, attributes: { color: 'Navy' } });
    expect(csv.rows[0]!.recipient.postal_code).toBe('1');
  });

  test('a quoted line break stays in its row; row numbers are spreadsheet rows', () => {
    const text = `${HEADER},size\nAnn,Lee,,"1 Main St\nBack door",Oslo,OS,1,NO,M\nBo,Ek,,x,Oslo,OS,1,NO,XL\n`;
    const csv = parseRecipientsCsv(text, 'r.csv');
    expect(csv.rows.map((r) => r.row)).toEqual([2, 3]);
    expect(csv.rows[0]!.recipient.line_1).toBe('1 Main St\nBack door');
  });

  test('blank rows are skipped but still counted; empty cells are left out', () => {
    const text = `${HEADER},size,quantity\n\n,,,,,,,,,\nAnn,Lee,,x,Oslo,OS,1,NO,,\n`;
    const csv = parseRecipientsCsv(text, 'r.csv');
    expect(csv.rows).toHaveLength(1);
    expect(csv.rows[0]!.row).toBe(4);
    expect(csv.rows[0]!.attributes).toEqual({});
    expect(csv.rows[0]!.quantity).toBeUndefined();
    expect('email' in csv.rows[0]!.recipient).toBe(false);
  });

  test('an unnamed column is ignored while empty, a short row has empty cells at the end', () => {
    const csv = parseRecipientsCsv(`${HEADER},size,\nAnn,Lee,,x,Oslo,OS,1,NO,S,\nBo,Ek,,x,Oslo,OS,1,NO\n`, 'r.csv');
    expect(csv.attributeColumns).toEqual(['size']);
    expect(csv.rows[1]!.attributes).toEqual({});
    expect(csv.rows[1]!.recipient.country).toBe('NO');
  });

  test('errors name the row and the column', () => {
    let e = csvError(`${HEADER},quantity\nAnn,Lee,,x,Oslo,OS,1,NO,2\nBo,Ek,,x,Oslo,OS,1,NO,two\n`);
    expect(e.message).toBe('recipients.csv row 3, column quantity: must be a positive integer, got "two"');
    expect([e.row, e.column]).toEqual([3, 'quantity']);

    e = csvError(`${HEADER},quantity\nAnn,Lee,,x,Oslo,OS,1,NO,0\n`);
    expect(e.message).toBe('recipients.csv row 2, column quantity: must be a positive integer, got "0"');
    e = csvError(`${HEADER},quantity\nAnn,Lee,,x,Oslo,OS,1,NO,99999999999999999999\n`);
    expect(e.message).toBe('recipients.csv row 2, column quantity: is too large (at most 9007199254740991), got "99999999999999999999"');

    e = csvError(`${HEADER},product\nAnn,Lee,,x,Oslo,OS,1,NO,abc\n`);
    expect(e.message).toBe('recipients.csv row 2, column product: must be a positive integer, got "abc"');

    e = csvError(`${HEADER}\nAnn,Lee,,x,Oslo,OS,1,NO\nBo,Ek,,1 Main St, Apt 2,Oslo,OS,1,NO\n`);
    expect(e.message).toBe(
      'recipients.csv row 3, column #9: has a value but the header has only 8 columns (a comma inside an unquoted value?)',
    );

    e = csvError(`${HEADER},\nAnn,Lee,,x,Oslo,OS,1,NO,oops\n`);
    expect(e.message).toBe('recipients.csv row 2, column #9: has a value but the column has no header name');

    // Which recipient fields are required is not shown: a missing column is the service's to refuse (a warning per row).
    expect(parseRecipientsCsv('first_name,last_name,line_1,city,state,country\nAnn,Lee,x,Oslo,OS,NO\n', 'recipients.csv').rows).toHaveLength(1);
    e = csvError('name,size\nAnn,M\n');
    expect(e.message).toBe(
      'recipients.csv row 1: the header names no recipient field (columns: first_name, last_name, email, phone, company, line_1, line_2, city, state, postal_code, country)',
    );

    e = csvError(`${HEADER},Size,size\n`);
    expect(e.message).toBe('recipients.csv row 1, column size: appears twice (columns 9 and 10)');

    e = csvError(`${HEADER}\n`);
    expect(e.message).toBe('recipients.csv: has a header but no recipient rows');

    e = csvError('');
    expect(e.message).toBe('recipients.csv row 1: the header row is missing or empty');

    e = csvError(`${HEADER}\nAnn,Lee,,x,Oslo,OS,1,NO\nBo,Ek,,"x"y,Oslo,OS,1,NO\n`);
    expect(e.row).toBe(3);
    expect(e.message).toBe('recipients.csv row 3: not a valid CSV: field 4 has text after its closing quote ("y"); a quote inside a quoted value is written twice ("")');
  });
});

describe('readRecipientBatches', () => {
  test('the file read as a stream, in batches of any size, holds the rows of the whole text, with their spreadsheet rows', async () => {
    const dir = tempDir();
    // Rows of ~100 bytes: lists of 0-2,000 rows cross the stream's 64 KB pieces, quoted line breaks and blank rows among them.
    const row = fc.record({
      name: fc.stringMatching(/^[A-Za-zé]{1,12}$/),
      line: fc.oneof(fc.constant('1 Main St'), fc.constant('"2 High St, Apt 4"'), fc.constant('"Back door\r\nBlue gate"')),
      blank: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 2_000, size: 'max' }), fc.integer({ min: 1, max: 1_500 }), async (rows, size) => {
        const lines = rows.map((r, i) => (r.blank && i % 5 === 0 ? ',,,,,,,' : `${r.name},Lee,${r.name.toLowerCase()}@example.com,${r.line},Oslo,OS,0150,NO`));
        const text = `\uFEFF${HEADER}\r\n${lines.join('\r\n')}\r\n${'x'.repeat(70)}@example.com,,,,,,,\r\n`;
        const file = join(dir, 'list.csv');
        writeFileSync(file, text);
        const batches: RecipientRow[][] = [];
        for await (const batch of readRecipientBatches(file, 'list.csv', size)) batches.push(batch.rows);
        expect(batches.flat()).toEqual(parseRecipientsCsv(text, 'list.csv').rows);
        expect(batches.slice(0, -1).every((b) => b.length === size)).toBe(true);
        expect(batches.at(-1)!.length).toBeGreaterThan(0);
      }),
      { numRuns: 40 },
    );
  });
});

// Issue 41.6: what a list may not hold is refused naming its row and column, never stripped
// nor sent; a FIFO put in the list's place after the flags were checked is refused at once.
describe('odd cells and odd files', () => {
  const row = (cells: Record<string, string>) => ['Ann', 'Lee', '', '1 Main St', 'Oslo', 'OS', '0150', 'NO'].map((value, i) => cells[HEADER.split(',')[i]!] ?? value).join(',');

  test('a NUL byte or an escape sequence in a cell: refused, naming the row and the column as the header names it', () => {
    expect(csvError(`${HEADER}\n${row({})}\n${row({ city: 'Os\u0000lo' })}\n`).message).toBe(
      'recipients.csv row 3, column city: holds a control character (U+0000 NUL): merch sends no NUL bytes, escape sequences or other control characters; fix the cell (a tab, and a line break inside a quoted cell, are allowed)',
    );
    const escaped = csvError(Buffer.from(`${HEADER}\n${row({ line_1: '"\u001b]8;;http://evil.example\u0007click\u001b]8;;\u0007"' })}\n`));
    expect([escaped.row, escaped.column]).toEqual([2, 'line_1']);
    expect(escaped.message).toContain('U+001B ESC');
    // In the header: row 1, the column by its place.
    expect(csvError(`first_name,ci\u001bty\n`).message).toMatch(/^recipients\.csv row 1, column #2: holds a control character \(U\+001B ESC\)/);
    // A tab is allowed (and trimmed at the ends, as spaces are).
    expect(parseRecipientsCsv(`${HEADER}\n${row({ line_1: '\t1 Main\tSt' })}\n`, 'r.csv').rows[0]!.recipient.line_1).toBe('1 Main\tSt');
  });

  test('a cell longer than 65,536 characters: refused naming its row and column', () => {
    const error = csvError(`${HEADER}\n${row({ line_1: 'x'.repeat(65_537) })}\n`);
    expect(error.message).toBe('recipients.csv row 2, column line_1: is longer than 65,536 characters');
  });

  test('read as a stream: a cell of 20 MB is refused after its first 64 KiB pieces, naming row and column', async () => {
    const file = join(tempDir('merch-csv-'), 'list.csv');
    writeFileSync(file, `${HEADER}\n${row({})}\n${row({ city: 'c'.repeat(20_000_000) })}\n`);
    const read = async () => {
      for await (const _batch of readRecipientBatches(file, 'list.csv', 100));
    };
    await expect(read()).rejects.toThrow(new CsvError('list.csv', 3, 'city', 'is longer than 65,536 characters'));
  });

  test('a FIFO in the list\'s place (no writer) is refused at once, not waited on', async () => {
    const { execFileSync } = await import('node:child_process');
    const file = join(tempDir('merch-csv-'), 'list.csv');
    execFileSync('mkfifo', [file]);
    const read = async () => {
      for await (const _batch of readRecipientBatches(file, 'list.csv', 100));
    };
    await expect(read()).rejects.toThrow(`list.csv: cannot be read: ${file} is a FIFO (named pipe), not a regular file`);
  });
});
