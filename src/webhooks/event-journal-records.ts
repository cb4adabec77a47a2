import { z } from 'zod';
import { deliverySchema, type Delivery } from '../contract/delivery.js';
import { scanJsonl, type ScanResult as JsonlScan } from '../lib/jsonl-journal.js';

/**
 * The records of the event journal (see event-journal.ts) and how a journal file is read:
 * record by record (src/lib/jsonl-journal.ts), tolerating a torn last line and skipping
 * lines that are not records.
 */

export interface JournalEvent {
  id: number;
  received_at: string;
  event: string;
  hook: Delivery['hook'];
  data: Delivery['data'];
  /** The targets the event was to be forwarded to when it was received. */
  forward_to?: string[];
}

export type JournalRecord =
  | { type: 'event'; event: JournalEvent }
  | { type: 'delivered'; id: number; target: string };

export interface ScanResult extends JsonlScan {
  lastId: number;
}

const eventRecordSchema = z.object({
  id: z.number().int().positive(),
  received_at: z.string(),
  event: z.string(),
  hook: deliverySchema.shape.hook,
  data: deliverySchema.shape.data,
  forward_to: z.array(z.string()).optional(),
});
const deliveredRecordSchema = z.object({
  type: z.literal('delivered'),
  id: z.number().int().positive(),
  target: z.string(),
});

/** Reads a journal record by record; a missing file reads as empty. */
export async function scanJournal(file: string, visit: (record: JournalRecord) => void): Promise<ScanResult> {
  let lastId = 0;
  const scan = await scanJsonl(file, recordVisitor((record) => {
    if (record.type === 'event') lastId = Math.max(lastId, record.event.id);
    visit(record);
  }));
  return { ...scan, lastId };
}

/** A line visitor (src/lib/jsonl-journal.ts) that passes on the journal's records and refuses other lines. */
export function recordVisitor(visit: (record: JournalRecord) => void): (value: unknown) => boolean {
  return (value) => {
    const record = recordOf(value);
    if (record !== undefined) visit(record);
    return record !== undefined;
  };
}

/** The record a line holds, or undefined when it is not one. */
function recordOf(value: unknown): JournalRecord | undefined {
  const marker = deliveredRecordSchema.safeParse(value);
  if (marker.success) return { type: 'delivered', id: marker.data.id, target: marker.data.target };
  // Validated, but the parsed value itself is kept: zod's copy would drop unknown keys.
  if (eventRecordSchema.safeParse(value).success) return { type: 'event', event: value as JournalEvent };
  return undefined;
}
