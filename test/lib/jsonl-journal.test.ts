import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonlJournal, scanJsonl } from '../../src/lib/jsonl-journal.js';
import { NotRegularFile, SymbolicLinkRefused } from '../../src/lib/safe-files.js';
import { tempDir } from '../support/temp-dir.js';

/** The file is read in pieces of 64 KiB (createReadStream's): lines around and past that size. */
const PIECE = 64 * 1024;

/** A line of the file: a record (of about `size` bytes), a blank line, or one that is not JSON. */
const line = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(1, 100, PIECE - 20, PIECE, PIECE + 7, 3 * PIECE + 1).map((size) => ({ record: { pad: 'é'.repeat(Math.ceil(size / 2)) } })) },
  { weight: 1, arbitrary: fc.constant({ blank: true as const }) },
  { weight: 1, arbitrary: fc.constant({ notJson: true as const }) },
);

describe('scanJsonl', () => {
  it('visits every record, whatever pieces its line spans; a torn end is counted, not visited', async () => {
    const dir = tempDir('merch-jsonl-');
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 6 }), fc.nat(3 * PIECE), fc.boolean(), async (lines, tornSize, torn) => {
        const text = lines.map((l) => ('record' in l ? JSON.stringify(l.record) : 'blank' in l ? '  ' : '{not json')).join('\n') + (lines.length > 0 ? '\n' : '');
        const tail = torn ? `{"pad":"${'x'.repeat(tornSize)}` : '';
        const file = join(dir, 'journal.jsonl');
        writeFileSync(file, text + tail);
        const seen: unknown[] = [];
        const result = await scanJsonl(file, (value) => (seen.push(value), true));
        expect(seen).toEqual(lines.filter((l) => 'record' in l).map((l) => (l as { record: unknown }).record));
        expect(result).toEqual({ validBytes: Buffer.byteLength(text), tornBytes: Buffer.byteLength(tail), skippedLines: lines.filter((l) => 'notJson' in l).length });
      }),
      { numRuns: 60 },
    );
  });
});

// Issue 41.5: no journal is written through a planted link, and each is 0600.
describe('JsonlJournal.open', () => {
  it('refuses a symbolic link or a FIFO in the journal\'s place, before reading or writing anything', async () => {
    const dir = tempDir('merch-safe-');
    const target = join(dir, 'elsewhere');
    writeFileSync(target, '');
    symlinkSync(target, join(dir, 'events.jsonl'));
    await expect(JsonlJournal.open(join(dir, 'events.jsonl'), () => true)).rejects.toThrow(SymbolicLinkRefused);
    expect(readFileSync(target, 'utf8')).toBe('');
    const path = join(dir, 'fifo.jsonl');
    execFileSync('mkfifo', [path]);
    await expect(JsonlJournal.open(path, () => true)).rejects.toThrow(NotRegularFile);
  });

  it('is 0600 even when it was not', async () => {
    const path = join(tempDir('merch-safe-'), 'events.jsonl');
    writeFileSync(path, '{"a":1}\n');
    chmodSync(path, 0o666);
    const journal = await JsonlJournal.open(path, () => true);
    await journal.append({ b: 2 });
    await journal.close();
    expect([readFileSync(path, 'utf8'), statSync(path).mode & 0o777]).toEqual(['{"a":1}\n{"b":2}\n', 0o600]);
  });
});
