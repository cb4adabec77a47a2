import { rmSync, statSync } from 'node:fs';
import { COLLECTIONS, recordId, type CollectionName, type RecordKey, type RecordOf } from './collections.js';
import { COMPACTION, DeadLines, type Compaction } from './compaction.js';
import { Journal, journalPath, type JournalEntry, type JournalLine } from './journal.js';
import { applyOrderMove, type OrderMove } from './order-moves.js';
import type { Order } from './records.js';
import { readSnapshot, writeSnapshot } from './snapshot.js';
import type { IdKind, Owned, State } from './state.js';
import { TimeSlice } from './time-slice.js';

/**
 * `--data FILE`: the state in FILE (a snapshot) and FILE.journal beside it (the changes since,
 * src/sandbox/journal.ts). A change costs a line the size of the record it touched, whatever
 * the size of the state, and a lifecycle's move of an order (its payment, a stage) a line of
 * its own, whatever the size of the order; the answer acknowledging a change is sent once
 * its line is fsync'd (`saved()`). When much of the journal no longer counts (records written
 * again or removed since: src/sandbox/compaction.ts), a new snapshot is written in the
 * background and the journal keeps only what came after it. A SIGKILL at any moment loses
 * no acknowledged change: at start the snapshot is read and the journal replayed.
 *
 * Why the replay gives the live state: a record's lines are in the order of its changes, each
 * put is the record whole as it was when the line was written (which may be after later
 * changes of it, whose lines then follow), and a move applied again to a record that already
 * has it and the moves after it leaves it as it was (src/sandbox/order-moves.ts). So a
 * record replays to its last put, or its state in the snapshot, with the moves after it
 * applied: the live record, even where the put or the snapshot is newer than the lines
 * after it.
 */

/** On close, a state this small is written as one snapshot (and the journal removed). */
const SNAPSHOT_ON_CLOSE_BYTES = 16 << 20;

/** The journal replayed on the snapshot: a record is its last put, with the moves after it applied. */
function replay(snapshot: State, lines: readonly JournalLine[]): State {
  let state = snapshot;
  const indexes = new Map<CollectionName, Map<RecordKey, unknown>>();
  const indexOf = (name: CollectionName) => {
    let index = indexes.get(name);
    if (!index) {
      const { list, key } = COLLECTIONS[name] as { list: (s: State) => unknown[]; key: (record: unknown) => RecordKey };
      index = new Map(list(state).map((record) => [key(record), record]));
      indexes.set(name, index);
    }
    return index;
  };
  for (const { entry } of lines) {
    if ('reset' in entry) {
      state = entry.reset;
      indexes.clear();
    } else if ('ids' in entry) {
      // Counters only go up (a snapshot may hold records newer than an older line).
      for (const kind of Object.keys(entry.ids) as IdKind[]) state.next_ids[kind] = Math.max(state.next_ids[kind] ?? 0, entry.ids[kind]);
    } else if ('put' in entry) {
      indexOf(entry.put).set(entry.key, entry.value);
    } else if ('move' in entry) {
      // An order no longer there (a reset came after) has nothing to move.
      const owned = indexOf('orders').get(entry.order) as Owned<Order> | undefined;
      if (owned) applyOrderMove(owned.record, entry);
    } else {
      indexOf(entry.remove).delete(entry.key);
    }
  }
  for (const [name, index] of indexes) (COLLECTIONS[name].replace as (s: State, records: unknown[]) => void)(state, [...index.values()]);
  return state;
}

/**
 * A record's changes not yet written: the live record (serialised when written, so it holds
 * every change made until then), its removal, or, for an order, the moves since its last line.
 */
type Pending =
  | { collection: CollectionName; key: RecordKey; record: unknown }
  | { collection: CollectionName; key: RecordKey; removed: true }
  | { collection: 'orders'; key: number; moves: OrderMove[] };

interface Waiter {
  change: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class Persistence {
  /** Changes not yet written, by record (a record changed ten times is written once). */
  private pending = new Map<string, Pending>();
  private idsChanged = false;
  private resetPending = false;
  /** Every change is numbered; `durable` is the last one fsync'd. */
  private changes = 0;
  private durable = 0;
  private waiters: Waiter[] = [];
  private writing: Promise<void> | undefined;
  private compacting: Promise<void> | undefined;
  private compactNow: boolean;
  private closing = false;
  private failure: Error | undefined;
  /** File operations on the journal, one at a time. */
  private io: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly file: string,
    private readonly journal: Journal,
    private snapshotBytes: number,
    private readonly state: () => State,
    private readonly log: (line: string) => void,
    private readonly compaction: Compaction,
    private dead: DeadLines,
  ) {
    this.compactNow = snapshotBytes === 0;
  }

  /**
   * Reads the state (snapshot, then journal; a journal alone replays on the seed); undefined
   * when FILE has neither. Refusals are one-line errors. `state` reads the live state;
   * `compaction` is COMPACTION but in tests that compact small states.
   */
  static open(
    file: string,
    seed: () => State,
    state: () => State,
    log: (line: string) => void,
    compaction = COMPACTION,
  ): { stored: State | undefined; persistence: Persistence } {
    const snapshot = readSnapshot(file);
    const { journal, lines } = Journal.read(journalPath(file));
    // Left by a crash while a snapshot or a journal compaction was written: never read.
    rmSync(`${file}.tmp`, { force: true });
    rmSync(`${journalPath(file)}.tmp`, { force: true });
    const dead = new DeadLines();
    for (const { entry, bytes } of lines) dead.line(entry, bytes);
    const stored = snapshot === undefined && lines.length === 0 ? undefined : replay(snapshot ?? seed(), lines);
    const snapshotBytes = snapshot === undefined ? 0 : statSync(file).size;
    const persistence = new Persistence(file, journal, snapshotBytes, state, log, compaction, dead);
    // A reset in the journal (a crash before the snapshot that follows one): the snapshot no longer counts.
    if (lines.some(({ entry }) => 'reset' in entry)) persistence.compactNow = true;
    persistence.compactWhenDue();
    return { stored, persistence };
  }

  /** The number of changes so far: a request compares it before and after (`saved`). */
  get changeCount(): number {
    return this.changes;
  }

  put<C extends CollectionName>(collection: C, record: RecordOf<C>): void {
    const key = (COLLECTIONS[collection].key as (record: RecordOf<C>) => RecordKey)(record);
    this.change({ collection, key, record });
  }

  remove(collection: CollectionName, key: RecordKey): void {
    this.change({ collection, key, removed: true });
  }

  /**
   * An order moved (src/sandbox/order-moves.ts): a line of its own after the order's pending
   * moves; none when the order is to be written whole anyway (that line, serialised later,
   * holds the move).
   */
  moved(key: number, move: OrderMove): void {
    const id = recordId('orders', key);
    const pending = this.pending.get(id);
    if (pending === undefined) this.pending.set(id, { collection: 'orders', key, moves: [move] });
    else if ('moves' in pending) pending.moves.push(move);
    this.changed();
  }

  idsChange(): void {
    this.idsChanged = true;
    this.changed();
  }

  /** The whole state was replaced (reset): what was pending no longer matters. */
  replaced(): void {
    this.pending.clear();
    this.idsChanged = false;
    this.resetPending = true;
    this.compactNow = true;
    this.changed();
  }

  /** Resolves once every change made so far is on disk (fsync'd). */
  saved(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.durable === this.changes) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ change: this.changes, resolve, reject }));
  }

  /** Writes what is pending and stops; a small state is left as one snapshot, without a journal. */
  async close(): Promise<void> {
    this.closing = true;
    await this.compacting;
    await this.saved();
    await this.writing;
    if (this.journal.bytes > 0 && this.journal.bytes + this.snapshotBytes <= SNAPSHOT_ON_CLOSE_BYTES) {
      await this.compact(false);
    }
    await this.exclusive(() => this.journal.close());
  }

  /** A record put or removed: what was pending for it (its moves included) is in that line. */
  private change(pending: Pending): void {
    // In its place in the map if it was pending: records made in one batch are written, and
    // so replayed into the lists, in the order they were made, as the live lists have them.
    this.pending.set(recordId(pending.collection, pending.key), pending);
    this.changed();
  }

  private changed(): void {
    this.changes++;
    this.schedule();
  }

  private schedule(): void {
    this.writing ??= this.writeAll().finally(() => {
      this.writing = undefined;
      // A change made after the last batch was taken, before this ran, found it still writing.
      if (this.durable < this.changes && !this.failure) this.schedule();
    });
  }

  /** Writes the pending changes, batch after batch: the changes of one turn of the event loop share a write and an fsync. */
  private async writeAll(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    while (this.durable < this.changes && !this.failure) {
      const upTo = this.changes;
      const lines = await this.takeBatch();
      try {
        if (lines.length > 0) await this.exclusive(() => this.journal.append(lines.map(({ data }) => data)));
      } catch (error) {
        this.failure = new Error(`Cannot write sandbox journal ${this.journal.path}: ${(error as Error).message}`);
        this.log(this.failure.message);
        for (const waiter of this.waiters.splice(0)) waiter.reject(this.failure);
        return;
      }
      for (const { entry, data } of lines) this.dead.line(entry, data.length);
      this.durable = upTo;
      const done = this.waiters.filter((waiter) => waiter.change <= upTo);
      this.waiters = this.waiters.filter((waiter) => waiter.change > upTo);
      for (const waiter of done) waiter.resolve();
      this.compactWhenDue();
    }
  }

  /** The pending changes as journal lines, serialised in slices (an order of 1,000 shipping orders is ~2 MB of JSON). */
  private async takeBatch(): Promise<{ entry: JournalEntry; data: Buffer }[]> {
    const batch = [...this.pending.values()];
    this.pending = new Map();
    const lines: { entry: JournalEntry; data: Buffer }[] = [];
    const add = (entry: JournalEntry) => lines.push({ entry, data: Buffer.from(`${JSON.stringify(entry)}\n`) });
    if (this.resetPending) {
      this.resetPending = false;
      add({ reset: this.state() });
    }
    const slice = new TimeSlice();
    for (const pending of batch) {
      const { collection, key } = pending;
      if ('moves' in pending) for (const move of pending.moves) add({ order: pending.key, ...move });
      else add('removed' in pending ? { remove: collection, key } : { put: collection, key, value: pending.record });
      const pause = slice.pause();
      if (pause) await pause;
    }
    if (this.idsChanged) {
      this.idsChanged = false;
      add({ ids: this.state().next_ids });
    }
    return lines;
  }

  private compactWhenDue(): void {
    if (this.compacting || this.closing) return;
    if (!this.compactNow && !this.dead.due(this.compaction, this.snapshotBytes, this.journal.bytes)) return;
    this.compactNow = false;
    this.compacting = this.compact(true)
      .catch((error: Error) => this.log(`Cannot write sandbox data file ${this.file}: ${error.message}`))
      .finally(() => {
        this.compacting = undefined;
      });
  }

  /**
   * A new snapshot, then the journal cut to the lines appended while it was written. Those
   * lines (and any line before, should a crash come between the rename and the cut) replay
   * correctly on it, though it may hold changes made after some of them: a put sets a record
   * whole; a move replayed on a record that already has it, and the moves after it, changes
   * nothing (see the top of this file). A background one gives up on close (the journal has
   * everything).
   */
  private async compact(stopOnClose: boolean): Promise<void> {
    const from = await this.exclusive(() => this.journal.bytes);
    const bytes = await writeSnapshot(this.file, this.state(), () => stopOnClose && this.closing);
    if (bytes === undefined) return;
    await this.exclusive(async () => {
      await this.journal.keepFrom(from);
      // What is left was written while the snapshot was: counted anew from here (it errs low).
      this.dead = new DeadLines();
    });
    this.snapshotBytes = bytes;
  }

  private exclusive<T>(operation: () => T | Promise<T>): Promise<T> {
    const run = this.io.then(operation);
    this.io = run.catch(() => undefined);
    return run;
  }
}
