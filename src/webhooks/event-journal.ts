import type { Delivery } from '../contract/delivery.js';
import { JsonlJournal } from '../lib/jsonl-journal.js';
import { deliveryWithoutToken } from './hook-target.js';
import { recordVisitor, type JournalEvent } from './event-journal-records.js';

export { scanJournal, type JournalEvent, type JournalRecord, type ScanResult } from './event-journal-records.js';

/**
 * The event journal: the durable JSONL journal of src/lib/jsonl-journal.ts (append-only,
 * group-committed, owner-only), holding two kinds of record:
 *   {"id":7,"received_at":"...","event":"order.changed","hook":{...},"data":{...},"forward_to":[...]}
 *   {"type":"delivered","id":7,"target":"http://...","at":"..."}
 * The second marks a forwarded event as delivered to one target, so the file is never
 * rewritten and undelivered events can be resumed after a restart.
 */

export interface PendingEvent {
  event: JournalEvent;
  targets: string[];
}

export class EventJournal {
  private constructor(
    private readonly jsonl: JsonlJournal,
    private nextId: number,
    private readonly undelivered: Map<number, PendingEvent>,
  ) {}

  get file(): string {
    return this.jsonl.file;
  }

  /** What opening found: a torn last record, lines that are not records. */
  get recovered(): JsonlJournal['recovered'] {
    return this.jsonl.recovered;
  }

  /** Opens (or creates, with its directory) the journal and reads what it already holds. */
  static async open(file: string): Promise<EventJournal> {
    const undelivered = new Map<number, PendingEvent>();
    let lastId = 0;
    const jsonl = await JsonlJournal.open(file, recordVisitor((record) => {
      if (record.type === 'event') {
        lastId = Math.max(lastId, record.event.id);
        const targets = record.event.forward_to ?? [];
        if (targets.length > 0) undelivered.set(record.event.id, { event: record.event, targets });
      } else {
        const pending = undelivered.get(record.id);
        if (pending) settle(undelivered, pending, record.target);
      }
    }));
    return new EventJournal(jsonl, lastId + 1, undelivered);
  }

  /**
   * Appends a received delivery; resolves with its record once it is on disk. `json`, the
   * text the delivery was parsed from, is written into the record as it is when it can be
   * (one line, nothing but `hook` and `data`), rather than serialised again. The record's
   * `hook.target` has no `?token=` (the listener's secret: src/webhooks/hook-target.ts).
   */
  async append(received: Delivery, forwardTo: readonly string[] = [], receivedAt = new Date(), receivedJson?: string): Promise<JournalEvent> {
    const { delivery, json } = deliveryWithoutToken(received, receivedJson);
    const event: JournalEvent = {
      id: this.nextId++,
      received_at: receivedAt.toISOString(),
      event: delivery.hook.event,
      hook: delivery.hook,
      data: delivery.data,
      ...(forwardTo.length > 0 ? { forward_to: [...forwardTo] } : {}),
    };
    const body = json === undefined ? -1 : reusableObjectStart(json, delivery);
    if (body === -1) {
      await this.jsonl.append(event);
    } else {
      const { hook, data, ...head } = event;
      await this.jsonl.appendJson(`${JSON.stringify(head).slice(0, -1)},${json!.slice(body + 1)}`);
    }
    if (event.forward_to) this.undelivered.set(event.id, { event, targets: [...event.forward_to] });
    return event;
  }

  /** Records that an event reached one of its targets. */
  async markDelivered(id: number, target: string): Promise<void> {
    await this.jsonl.append({ type: 'delivered', id, target, at: new Date().toISOString() });
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
  close(): Promise<void> {
    return this.jsonl.close();
  }
}

/**
 * Where the object of `json` opens, when its text can stand in the record for `hook` and
 * `data`: one line (a record is a line), and no key but those two. Else -1.
 */
function reusableObjectStart(json: string, delivery: Delivery): number {
  if (json.includes('\n') || json.includes('\r') || Object.keys(delivery).length !== 2) return -1;
  const start = json.indexOf('{');
  return json.slice(0, start).trim() === '' ? start : -1;
}

function settle(map: Map<number, PendingEvent>, pending: PendingEvent, target: string): void {
  pending.targets = pending.targets.filter((t) => t !== target);
  if (pending.targets.length === 0) map.delete(pending.event.id);
}
