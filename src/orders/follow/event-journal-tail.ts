import { open, stat } from 'node:fs/promises';
import { sleep } from '../../lib/backoff.js';
import { recordVisitor, type JournalEvent } from '../../webhooks/event-journal-records.js';

/** How often the journal is looked at for new lines. */
const TAIL_INTERVAL_MS = 200;

/**
 * Follows the event journal of a running `merch webhooks listen` (`--journal FILE`): each
 * event record appended after following started goes to `onEvent`, in file order, one at
 * a time (the next once the last one's promise settles; its failure ends the following),
 * until the signal aborts. A line still being written waits for its newline; a file that
 * shrinks (replaced by a new journal) is read again from its start.
 */
export async function followEventJournal(file: string, onEvent: (event: JournalEvent) => void | Promise<void>, signal: AbortSignal): Promise<void> {
  let offset = (await stat(file)).size;
  let partial = Buffer.alloc(0);
  const events: JournalEvent[] = [];
  const visit = recordVisitor((record) => {
    if (record.type === 'event') events.push(record.event);
  });
  while (!signal.aborted) {
    const size = (await stat(file).catch(() => undefined))?.size ?? 0;
    if (size < offset) {
      offset = 0;
      partial = Buffer.alloc(0);
    }
    if (size > offset) {
      const chunk = await readRange(file, offset, size);
      offset += chunk.length;
      const bytes = Buffer.concat([partial, chunk]);
      const end = bytes.lastIndexOf(10) + 1;
      partial = bytes.subarray(end);
      for (const line of bytes.toString('utf8', 0, end).split('\n')) {
        const value = parseLine(line);
        if (value !== undefined) visit(value);
      }
      for (const event of events.splice(0)) {
        if (signal.aborted) return;
        await onEvent(event);
      }
    }
    await sleep(TAIL_INTERVAL_MS, signal);
  }
}

async function readRange(file: string, from: number, to: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(to - from);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, from);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function parseLine(line: string): unknown {
  try {
    return line.trim() === '' ? undefined : JSON.parse(line);
  } catch {
    return undefined;
  }
}
