import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { deliverySchema, type Delivery } from '../contract/delivery.js';

/**
 * The records of the event journal (see journal.ts) and how a journal file is read:
 * record by record, tolerating a torn last line and skipping lines that are not records.
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

export interface ScanResult {
  lastId: number;
  /** Bytes of the file up to the end of its last complete line. */
  validBytes: number;
  /** Bytes after the last newline: a record torn by a crash mid-write (never acknowledged). */
  tornBytes: number;
  /** Complete lines that are not records (left in place, skipped). */
  skippedLines: number;
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
  const result: ScanResult = { lastId: 0, validBytes: 0, tornBytes: 0, skippedLines: 0 };
  if (!(await exists(file))) return result;
  let carry: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(file)) {
    const buffer = carry.length > 0 ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
    let start = 0;
    for (let nl = buffer.indexOf(10); nl !== -1; nl = buffer.indexOf(10, start)) {
      const record = parseRecord(buffer.toString('utf8', start, nl));
      if (record === undefined) result.skippedLines++;
      else if (record !== null) {
        if (record.type === 'event') result.lastId = Math.max(result.lastId, record.event.id);
        visit(record);
      }
      start = nl + 1;
    }
    result.validBytes += start;
    carry = buffer.subarray(start);
  }
  result.tornBytes = carry.length;
  return result;
}

/** A record, null for a blank line, undefined for a line that is not a record. */
function parseRecord(line: string): JournalRecord | null | undefined {
  if (line.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const marker = deliveredRecordSchema.safeParse(value);
  if (marker.success) return { type: 'delivered', id: marker.data.id, target: marker.data.target };
  // Validated, but the parsed value itself is kept: zod's copy would drop unknown keys.
  if (eventRecordSchema.safeParse(value).success) return { type: 'event', event: value as JournalEvent };
  return undefined;
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
