import { appendFile, writeFile } from 'node:fs/promises';
import { csvEncoder, type CsvEncoder } from '../../output/csv.js';

/**
 * `orders create --results FILE`: one CSV line per recipient row, written as it is known
 * (the rows earlier orders hold first, then each batch as it finishes), so a crash leaves
 * a correct partial file. A run starts the file anew and writes every row again, so a
 * rerun completes it.
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
  order_id?: number | string;
  shipping_order_id?: number | string;
  status: 'created' | 'existing' | 'refused';
  error?: string;
}

export const RESULT_COLUMNS = ['row', 'external_id', 'order_id', 'shipping_order_id', 'status', 'error'] as const;

export class ResultsFile {
  private constructor(
    readonly path: string,
    private readonly encode: CsvEncoder,
  ) {}

  /** Starts the file: its header line only. */
  static async create(path: string): Promise<ResultsFile> {
    const encode = await csvEncoder();
    await writeFile(path, encode([...RESULT_COLUMNS]));
    return new ResultsFile(path, encode);
  }

  /** Appends one finished batch's rows in one write. */
  async append(rows: readonly ResultRow[]): Promise<void> {
    const text = rows.map((r) => this.encode(RESULT_COLUMNS.map((column) => r[column]))).join('');
    await appendFile(this.path, text);
  }
}
