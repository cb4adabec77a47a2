import { describe, expect, it } from 'vitest';
import { CsvError, readRecipientBatches } from '../../../src/orders/create/recipients-csv.js';
import { tempDir } from '../../support/temp-dir.js';

// A read error of the streamed list (a directory, a disk error) was an unhandled 'error'
// event: a stack trace and the end of the process (issue 30.1). It is the reader's error.

describe('readRecipientBatches on something that cannot be read', () => {
  it('a directory: a CsvError naming the file in words', async () => {
    const dir = tempDir();
    const read = async () => {
      for await (const _batch of readRecipientBatches(dir, 'list.csv', 10)) void _batch;
    };
    await expect(read()).rejects.toThrow(CsvError);
    await expect(read()).rejects.toThrow(/^list\.csv: cannot be read: .* is a directory, not a regular file$/);
  });
});
