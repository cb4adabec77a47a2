import { recordId } from './collections.js';
import type { JournalEntry } from './journal.js';

/**
 * When the `--data` journal is compacted into a new snapshot (src/sandbox/persistence.ts):
 * once its lines that no longer count are at least `atBytes`, and `ofLive` times the rest of
 * the files (the snapshot and the journal's other lines). A snapshot costs the size of the
 * state and drops only those lines, so with `ofLive` 1 it is written once per as many bytes
 * of changes as it costs (a constant cost per change), and the files stay within about twice
 * the state (and `atBytes`). A journal whose lines all count (orders created and paid) is as
 * small as a snapshot would be and replays as fast: a snapshot of it would only cost the
 * serialisation of the whole state, once more (what most of `--data`'s time went to before,
 * bench/README.md).
 */
export interface Compaction {
  atBytes: number;
  ofLive: number;
}

export const COMPACTION: Compaction = { atBytes: 16 << 20, ofLive: 1 };

/**
 * How many bytes of the journal no longer count: the lines about a record put whole or
 * removed since (its last put and the moves after it), a removal itself, id counters written
 * again since, every line before a reset. A record of the snapshot put again counts nothing:
 * the size of its copy there is not known, so the count errs low (by the snapshot at most).
 */
export class DeadLines {
  bytes = 0;
  /** The bytes of the lines about each record since its last put. */
  private readonly records = new Map<string, number>();
  private idsLine = 0;
  private total = 0;

  /** The journal's next line: `bytes` long, and what it says. */
  line(entry: JournalEntry, bytes: number): void {
    if ('reset' in entry) {
      this.bytes = this.total;
      this.records.clear();
      this.idsLine = 0;
    } else if ('ids' in entry) {
      this.bytes += this.idsLine;
      this.idsLine = bytes;
    } else if ('move' in entry) {
      const id = recordId('orders', entry.order);
      this.records.set(id, (this.records.get(id) ?? 0) + bytes);
    } else {
      const id = 'put' in entry ? recordId(entry.put, entry.key) : recordId(entry.remove, entry.key);
      this.bytes += this.records.get(id) ?? 0;
      if ('put' in entry) {
        this.records.set(id, bytes);
      } else {
        this.records.delete(id);
        this.bytes += bytes;
      }
    }
    this.total += bytes;
  }

  /** Whether a snapshot is due, with a snapshot and a journal (these lines) of these sizes. */
  due(compaction: Compaction, snapshotBytes: number, journalBytes: number): boolean {
    const live = snapshotBytes + journalBytes - this.bytes;
    return this.bytes >= Math.max(compaction.atBytes, compaction.ofLive * live);
  }
}
