import { readFileSync, truncateSync } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { APPEND_NO_FOLLOW, WRITE_NO_FOLLOW } from '../lib/safe-files.js';
import { isCollectionName, type CollectionName, type RecordKey } from './collections.js';
import { isOrderMove, type OrderMove } from './order-moves.js';
import type { State } from './state.js';

/**
 * `--data FILE`'s journal, `FILE.journal`: one JSON line per change since the snapshot
 * (FILE), appended and fsync'd before the change is acknowledged. A line is a record put
 * whole or removed, one of the lifecycle's moves of an order (its payment, a stage: a few
 * dozen bytes, src/sandbox/order-moves.ts), the id counters, or a reset to a whole state.
 * Replayed in order: a record is its last put with the moves after it applied
 * (src/sandbox/persistence.ts). Journals written before moves were (no move lines) replay
 * as they did.
 */
export type JournalEntry =
  | { put: CollectionName; key: RecordKey; value: unknown }
  | { remove: CollectionName; key: RecordKey }
  | ({ order: number } & OrderMove)
  | { ids: State['next_ids'] }
  | { reset: State };

export const journalPath = (file: string): string => `${file}.journal`;

/** A line of the journal: what it says, and its length in bytes (newline included). */
export interface JournalLine {
  entry: JournalEntry;
  bytes: number;
}

const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null;
const isKey = (value: unknown): value is RecordKey => typeof value === 'string' || typeof value === 'number';

function isEntry(value: unknown): value is JournalEntry {
  if (!isObject(value)) return false;
  const entry = value as Record<string, unknown>;
  return (
    (isCollectionName(entry.put) && isKey(entry.key) && 'value' in entry) ||
    (isCollectionName(entry.remove) && isKey(entry.key)) ||
    (typeof entry.order === 'number' && isOrderMove(entry)) ||
    isObject(entry.ids) ||
    isObject(entry.reset)
  );
}

function entryOf(line: string, where: string): JournalEntry {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    parsed = undefined;
  }
  if (!isEntry(parsed)) throw new Error(`Sandbox journal ${where} is not a journal entry; remove the journal to start from the snapshot alone.`);
  return parsed;
}

/** Syncs a directory, so that a file created or renamed in it stays after a crash. */
export async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export class Journal {
  private handle: FileHandle | undefined;

  private constructor(
    readonly path: string,
    /** The journal's length: every byte of it a whole line, fsync'd. */
    public bytes: number,
  ) {}

  /**
   * Reads the journal at start (none: no entries). A torn last line (a write cut by a crash,
   * so never acknowledged) is ignored and cut off, so later lines follow a whole one.
   */
  static read(path: string): { journal: Journal; lines: JournalLine[] } {
    let content: Buffer;
    try {
      content = readFileSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { journal: new Journal(path, 0), lines: [] };
      throw new Error(`Cannot read sandbox journal ${path}: ${(error as Error).message}`);
    }
    const whole = content.lastIndexOf(0x0a) + 1;
    if (whole < content.length) truncateSync(path, whole);
    const lines: JournalLine[] = [];
    for (let start = 0; start < whole; ) {
      const end = content.indexOf(0x0a, start) + 1;
      lines.push({ entry: entryOf(content.toString('utf8', start, end - 1), `${path} line ${lines.length + 1}`), bytes: end - start });
      start = end;
    }
    return { journal: new Journal(path, whole), lines };
  }

  /** Appends whole lines (each newline-terminated) and fsyncs them; on a failed write the journal is cut back to its last whole line. */
  async append(lines: readonly Buffer[]): Promise<void> {
    if (!this.handle) {
      this.handle = await open(this.path, APPEND_NO_FOLLOW);
      await syncDirectory(dirname(this.path));
    }
    const length = lines.reduce((sum, line) => sum + line.length, 0);
    try {
      const { bytesWritten } = await this.handle.writev(lines);
      if (bytesWritten !== length) throw new Error(`${bytesWritten} of ${length} bytes written`);
      await this.handle.sync();
    } catch (error) {
      await this.handle.truncate(this.bytes).catch(() => undefined);
      throw error;
    }
    this.bytes += length;
  }

  /**
   * After a snapshot: the lines from `offset` on (appended while it was written) become the
   * whole journal (a temporary file renamed over it); with none left, the journal is removed.
   */
  async keepFrom(offset: number): Promise<void> {
    await this.close();
    const length = this.bytes - offset;
    if (length === 0) {
      await rm(this.path, { force: true });
    } else {
      const tail = Buffer.alloc(length);
      const reading = await open(this.path, 'r');
      try {
        await reading.read(tail, 0, length, offset);
      } finally {
        await reading.close();
      }
      const temporary = `${this.path}.tmp`;
      const writing = await open(temporary, WRITE_NO_FOLLOW);
      try {
        await writing.writeFile(tail);
        await writing.sync();
      } finally {
        await writing.close();
      }
      await rename(temporary, this.path);
    }
    await syncDirectory(dirname(this.path));
    this.bytes = length;
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }
}
