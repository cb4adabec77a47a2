import type { FileHandle } from 'node:fs/promises';
import { createNewFile, openReplacing } from '../../lib/safe-files.js';
import { csvEncoder, type CsvEncoder } from '../../output/csv.js';

/**
 * `orders create --results FILE`: one CSV line per recipient row, written as it is known
 * (the rows earlier orders hold first, then each batch as it finishes), so a crash leaves
 * a correct partial file. A run starts the file anew and writes every row again, so a
 * rerun (with --force, which lets it replace the file) completes it.
 *
 * It holds addresses: it is created owner-only (0600, whatever the umask), as a new file
 * (O_EXCL: a file put there since the flags were checked is not overwritten, and a symbolic
 * link is not followed), or, with `--force`, written beside its place and renamed there (an
 * existing file, or a link, is replaced; a link's target is left alone). Rows are appended
 * through that one open file, never by its name again (issue 41.5).
 *
 *   row,external_id,order_id,shipping_order_id,status,error
 *
 * `row` is the recipient's spreadsheet row number (the header is row 1, the first recipient row 2);
 * `status` is `created` (by this run), `existing` (an earlier run's order holds the row: its
 * order and shipping order) or `refused`; a refused batch puts its error on each of its rows.
 */

export interface ResultRow {
  row: number;
  external_id: string;
  order_id?: number | bigint | string;
  shipping_order_id?: number | bigint | string;
  status: 'created' | 'existing' | 'refused';
  error?: string;
}

export const RESULT_COLUMNS = ['row', 'external_id', 'order_id', 'shipping_order_id', 'status', 'error'] as const;

export class ResultsFile {
  /** The appends, one after the other (batches finishing at once each write whole). */
  private writing: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly path: string,
    private readonly encode: CsvEncoder,
    private readonly handle: FileHandle,
  ) {}

  /** Starts the file: its header line only. `replace`: an existing file is replaced (--force); else one there is an error (EEXIST). */
  static async create(path: string, { replace = false }: { replace?: boolean } = {}): Promise<ResultsFile> {
    const encode = await csvEncoder();
    const header = encode([...RESULT_COLUMNS]);
    let handle: FileHandle;
    if (replace) handle = await openReplacing(path, header);
    else {
      handle = await createNewFile(path);
      try {
        await handle.writeFile(header);
      } catch (error) {
        await handle.close();
        throw error;
      }
    }
    return new ResultsFile(path, encode, handle);
  }

  /** Appends one finished batch's rows in one write. */
  append(rows: readonly ResultRow[]): Promise<void> {
    const text = rows.map((r) => this.encode(RESULT_COLUMNS.map((column) => r[column]))).join('');
    const written = this.writing.then(() => this.handle.writeFile(text));
    this.writing = written.catch(() => undefined);
    return written;
  }

  /** Waits for the appends, then closes the file. */
  async close(): Promise<void> {
    await this.writing;
    await this.handle.close();
  }
}
