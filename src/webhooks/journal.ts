import { chmod, mkdir, open, truncate, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Delivery } from '../contract/delivery.js';
import { exists, scanJournal, type JournalEvent, type ScanResult } from './journal-records.js';

export { scanJournal, type JournalEvent, type JournalRecord, type ScanResult } from './journal-records.js';

/**
 * The event journal: an append-only JSONL file, one record a line, readable by its owner
 * only. Two kinds of record:
 *   {"id":7,"received_at":"...","event":"order.changed","hook":{...},"data":{...},"forward_to":[...]}
 *   {"type":"delivered","id":7,"target":"http://...","at":"..."}
 * The second marks a forwarded event as delivered to one target, so the file is never
 * rewritten and undelivered events can be resumed after a restart.
 *
 * Appends are group-committed: records queued while earlier batches are being written
 * go together in one write and one fdatasync, and each append resolves only after its
 * record is on disk.
 */

export interface PendingEvent {
  event: JournalEvent;
  targets: string[];
}

/** Batches committing at once: one can be written while the one before it syncs. */
const MAX_IN_FLIGHT = 2;

interface QueuedWrite {
  line: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class Journal {
  private readonly queue: QueuedWrite[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private lastWrite: Promise<unknown> = Promise.resolve();
  private lastSettled: Promise<void> = Promise.resolve();
  private failure: unknown;
  private closed = false;

  private constructor(
    readonly file: string,
    private readonly handle: FileHandle,
    private nextId: number,
    private readonly undelivered: Map<number, PendingEvent>,
    /** What opening found: a torn last record is cut off, unreadable lines are skipped. */
    readonly recovered: Pick<ScanResult, 'tornBytes' | 'skippedLines'>,
  ) {}

  /** Opens (or creates, with its directory) the journal and reads what it already holds. */
  static async open(file: string): Promise<Journal> {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    const undelivered = new Map<number, PendingEvent>();
    const scan = await scanJournal(file, (record) => {
      if (record.type === 'event') {
        const targets = record.event.forward_to ?? [];
        if (targets.length > 0) undelivered.set(record.event.id, { event: record.event, targets });
      } else {
        const pending = undelivered.get(record.id);
        if (pending) settle(undelivered, pending, record.target);
      }
    });
    if (scan.tornBytes > 0) await truncate(file, scan.validBytes);
    const existed = await exists(file);
    const handle = await open(file, 'a', 0o600);
    try {
      await chmod(file, 0o600);
      if (!existed) await syncDirectory(dirname(file));
    } catch (error) {
      await handle.close();
      throw error;
    }
    const recovered = { tornBytes: scan.tornBytes, skippedLines: scan.skippedLines };
    return new Journal(file, handle, scan.lastId + 1, undelivered, recovered);
  }

  /** Appends a received delivery; resolves with its record once it is on disk. */
  async append(delivery: Delivery, forwardTo: readonly string[] = [], receivedAt = new Date()): Promise<JournalEvent> {
    const event: JournalEvent = {
      id: this.nextId++,
      received_at: receivedAt.toISOString(),
      event: delivery.hook.event,
      hook: delivery.hook,
      data: delivery.data,
      ...(forwardTo.length > 0 ? { forward_to: [...forwardTo] } : {}),
    };
    await this.write(JSON.stringify(event));
    if (event.forward_to) this.undelivered.set(event.id, { event, targets: [...event.forward_to] });
    return event;
  }

  /** Records that an event reached one of its targets. */
  async markDelivered(id: number, target: string): Promise<void> {
    await this.write(JSON.stringify({ type: 'delivered', id, target, at: new Date().toISOString() }));
    const pending = this.undelivered.get(id);
    if (pending) settle(this.undelivered, pending, target);
  }

  /** Events not yet delivered to all their targets, oldest first, with the targets left. */
  pending(): PendingEvent[] {
    return [...this.undelivered.values()]
      .sort((a, b) => a.event.id - b.event.id)
      .map((p) => ({ event: p.event, targets: [...p.targets] }));
  }

  /** Waits for queued records to reach the disk, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
    await this.handle.close();
  }

  private write(record: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the journal is closed'));
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queue.push({ line: `${record}\n`, resolve, reject });
      this.startBatches();
    });
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
   * One write and one fdatasync for a batch. Writes are chained so records stay in id
   * order; the sync of one batch may overlap the write of the next, and each batch
   * resolves only after a sync issued after its own write.
   */
  private async commit(batch: QueuedWrite[]): Promise<void> {
    const written = this.lastWrite.then(() => {
      // After a failed write part of a batch may be in the file: write nothing after it
      // (the next open cuts the torn record off).
      if (this.failure !== undefined) throw this.failure;
      return this.handle.appendFile(batch.map((w) => w.line).join(''));
    });
    this.lastWrite = written.catch(() => undefined);
    // Batches settle in order, so appends resolve in id order (printing and forwarding
    // follow the journal's order) even when a later sync finishes first.
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

function settle(map: Map<number, PendingEvent>, pending: PendingEvent, target: string): void {
  pending.targets = pending.targets.filter((t) => t !== target);
  if (pending.targets.length === 0) map.delete(pending.event.id);
}

/** Makes a newly created file's directory entry durable too. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
