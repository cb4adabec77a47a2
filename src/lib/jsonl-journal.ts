import { createReadStream } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { makeDirectories } from './make-directories.js';
import { stringifyExact } from './exact-json.js';
import { openToAppend, refuseLinkOrSpecial } from './safe-files.js';

/**
 * The one durable journal of the project: an append-only JSON Lines file, readable by its
 * owner only (0600, in a 0700 directory), never opened through a symbolic link (a link
 * planted in its place is refused: src/lib/safe-files.ts). The webhook listener's event journal and the
 * exactly-once order journal are both built on it.
 *
 * - Appends are group-committed: records queued while earlier batches are being written
 *   go together in one write and one fdatasync, and each append resolves only after its
 *   record is on disk, in the order the appends were made.
 * - Opening reads the file as a stream, record by record. A torn last line (a crash
 *   mid-write: never acknowledged) is reported and left in place; the next record starts
 *   on a fresh line, so it is skipped as one unreadable line from then on. Nothing is cut
 *   off, so a process that opens the file while another appends to it cannot lose a record.
 * - A newly created file's directory entry is fsync'd too.
 */

export interface ScanResult {
  /** Bytes of the file up to the end of its last complete line. */
  validBytes: number;
  /** Bytes after the last newline: a record torn by a crash mid-write. */
  tornBytes: number;
  /** Complete lines that are not records (left in place, skipped). */
  skippedLines: number;
}

/** Reads one line's JSON value; returns false when it is not a record of this journal. */
export type Visit = (value: unknown) => boolean;

/** How a line's JSON is read: JSON.parse, or lib/exact-json.ts's parseExact where ids beyond 2^53 must stay exact (the orders journal). */
export type ParseLine = (line: string) => unknown;

/** Reads a journal line by line; a missing file reads as empty. */
export async function scanJsonl(file: string, visit: Visit, parse: ParseLine = JSON.parse): Promise<ScanResult> {
  const result: ScanResult = { validBytes: 0, tornBytes: 0, skippedLines: 0 };
  if (!(await exists(file))) return result;
  // The start of a line longer than the pieces read so far, in pieces: joined once its end
  // comes (joined with every piece, a line of megabytes was copied again at each one).
  let carried: Buffer[] = [];
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    if (chunk.indexOf(10) === -1) {
      carried.push(chunk);
      continue;
    }
    const buffer = carried.length > 0 ? Buffer.concat([...carried, chunk]) : chunk;
    let start = 0;
    for (let nl = buffer.indexOf(10); nl !== -1; nl = buffer.indexOf(10, start)) {
      const line = buffer.toString('utf8', start, nl);
      if (line.trim() !== '' && !visitLine(line, visit, parse)) result.skippedLines++;
      start = nl + 1;
    }
    result.validBytes += start;
    carried = start < buffer.length ? [buffer.subarray(start)] : [];
  }
  result.tornBytes = carried.reduce((bytes, piece) => bytes + piece.length, 0);
  return result;
}

function visitLine(line: string, visit: Visit, parse: ParseLine): boolean {
  let value: unknown;
  try {
    value = parse(line);
  } catch {
    return false;
  }
  return visit(value);
}

/** Batches committing at once: one can be written while the one before it syncs. */
const MAX_IN_FLIGHT = 2;

interface QueuedWrite {
  line: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class JsonlJournal {
  private readonly queue: QueuedWrite[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private lastWrite: Promise<unknown> = Promise.resolve();
  private lastSettled: Promise<void> = Promise.resolve();
  private failure: unknown;
  private closed = false;

  private constructor(
    readonly file: string,
    private readonly handle: FileHandle,
    /** What opening found: a torn last record, unreadable lines. */
    readonly recovered: Pick<ScanResult, 'tornBytes' | 'skippedLines'>,
    /** The file does not end with a newline (a torn record): the next write starts one. */
    private needsNewline: boolean,
  ) {}

  /** Opens (or creates, with its directory) the journal, passing every record it holds to `visit`. */
  static async open(file: string, visit: Visit, parse?: ParseLine): Promise<JsonlJournal> {
    makeDirectories(dirname(file));
    // Not read nor written through a symbolic link; nothing but a regular file (a FIFO would hang the read).
    await refuseLinkOrSpecial(file);
    const scan = await scanJsonl(file, visit, parse);
    const existed = await exists(file);
    const handle = await openToAppend(file, 0o600);
    try {
      if (!existed) await syncDirectory(dirname(file));
    } catch (error) {
      await handle.close();
      throw error;
    }
    const recovered = { tornBytes: scan.tornBytes, skippedLines: scan.skippedLines };
    return new JsonlJournal(file, handle, recovered, scan.tornBytes > 0);
  }

  /** Appends one record (a BigInt as its digits: lib/exact-json.ts); resolves once it is on disk. */
  append(record: object): Promise<void> {
    return this.appendJson(stringifyExact(record));
  }

  /** Appends one record given as its JSON text, on one line; resolves once it is on disk. */
  appendJson(json: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`the journal ${this.file} is closed`));
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const line = `${this.needsNewline ? '\n' : ''}${json}\n`;
    this.needsNewline = false;
    return new Promise((resolve, reject) => {
      this.queue.push({ line, resolve, reject });
      this.startBatches();
    });
  }

  /** Waits for queued records to reach the disk, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
    await this.handle.close();
  }

  /** Commits everything queued as one batch, unless MAX_IN_FLIGHT batches are already going. */
  private startBatches(): void {
    while (this.queue.length > 0 && this.inFlight.size < MAX_IN_FLIGHT) {
      const commit: Promise<void> = this.commit(this.queue.splice(0)).finally(() => {
        this.inFlight.delete(commit);
        this.startBatches();
      });
      this.inFlight.add(commit);
    }
  }

  /**
   * One write and one fdatasync for a batch. Writes are chained so records stay in order;
   * the sync of one batch may overlap the write of the next, and each batch resolves only
   * after a sync issued after its own write.
   */
  private async commit(batch: QueuedWrite[]): Promise<void> {
    const written = this.lastWrite.then(() => {
      // After a failed write part of a batch may be in the file: write nothing after it.
      if (this.failure !== undefined) throw this.failure;
      return this.handle.appendFile(batch.map((w) => w.line).join(''));
    });
    this.lastWrite = written.catch(() => undefined);
    // Batches settle in order, so appends resolve in order even when a later sync finishes first.
    const previous = this.lastSettled;
    let settled: () => void = () => undefined;
    this.lastSettled = new Promise((resolve) => (settled = resolve));
    try {
      await written;
      await this.handle.datasync();
      await previous;
      for (const w of batch) w.resolve();
    } catch (error) {
      this.failure ??= error;
      for (const w of batch) w.reject(error);
    } finally {
      settled();
    }
  }
}

export async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Makes a newly created file's directory entry durable too. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some platforms cannot open a directory; the file's own fsync still holds.
  }
}
