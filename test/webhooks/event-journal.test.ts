import { appendFile, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventJournal, scanJournal, type JournalRecord } from '../../src/webhooks/event-journal.js';
import { tempDir } from '../support/temp-dir.js';
import { delivery } from './helpers.js';

afterEach(() => {
  vi.restoreAllMocks();
});

async function journalPath(): Promise<string> {
  return join(tempDir('merch-webhooks-'), 'nested', 'events.jsonl');
}

async function lines(file: string): Promise<unknown[]> {
  return (await readFile(file, 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l) as unknown);
}

describe('EventJournal', () => {
  it('creates its directory and an owner-only file, one JSON record a line', async () => {
    const file = await journalPath();
    const journal = await EventJournal.open(file);
    const event = await journal.append(delivery('order.changed', { id: 42 }), [], new Date('2025-01-02T03:04:05Z'));
    await journal.close();

    expect(event).toEqual({
      id: 1,
      received_at: '2025-01-02T03:04:05.000Z',
      event: 'order.changed',
      hook: { id: 1, event: 'order.changed', target: 'http://127.0.0.1/hook' },
      data: { id: 42 },
    });
    expect(await lines(file)).toEqual([event]);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('writes the received JSON text into the record when it is one line of hook and data only', async () => {
    const file = await journalPath();
    const journal = await EventJournal.open(file);
    const at = new Date('2025-01-02T03:04:05Z');
    const sent = delivery('order.changed', { id: 42, note: 'é \u2028' });
    const received = ` { "data" : {"note":"é \\u2028","id":42}, "hook":${JSON.stringify(sent.hook)} } `;
    const spaced = await journal.append(sent, ['http://t/'], at, received);
    const multiline = await journal.append(sent, [], at, JSON.stringify(sent, null, 2));
    const extraKey = { ...sent, extra: 1 } as typeof sent;
    const other = await journal.append(extraKey, [], at, JSON.stringify(extraKey));
    await journal.close();

    const text = await readFile(file, 'utf8');
    expect(text.split('\n')[0]).toBe(
      `{"id":1,"received_at":"2025-01-02T03:04:05.000Z","event":"order.changed","forward_to":["http://t/"],${received.trimStart().slice(1)}`,
    );
    expect(await lines(file)).toEqual([spaced, multiline, other]);
    expect(other).not.toHaveProperty('extra');
  });

  it('continues numbering after a reopen', async () => {
    const file = await journalPath();
    let journal = await EventJournal.open(file);
    await journal.append(delivery('order.created', { id: 1 }));
    await journal.append(delivery('order.created', { id: 2 }));
    await journal.close();
    journal = await EventJournal.open(file);
    const third = await journal.append(delivery('order.created', { id: 3 }));
    await journal.close();
    expect(third.id).toBe(3);
    expect((await lines(file)).map((r) => (r as { id: number }).id)).toEqual([1, 2, 3]);
  });

  it('group-commits concurrent appends: every record once, unique ids, fewer syncs than appends', async () => {
    const file = await journalPath();
    const journal = await EventJournal.open(file);
    const handleProto = Object.getPrototypeOf((journal as unknown as { jsonl: { handle: object } }).jsonl.handle) as {
      datasync: () => Promise<void>;
    };
    const syncs = vi.spyOn(handleProto, 'datasync');
    const events = await Promise.all(
      Array.from({ length: 50 }, (_, i) => journal.append(delivery('order.changed', { id: i }))),
    );
    await journal.close();

    expect(new Set(events.map((e) => e.id)).size).toBe(50);
    const records = (await lines(file)) as { id: number; data: { id: number } }[];
    expect(records).toHaveLength(50);
    expect(records.map((r) => r.data.id).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(records.map((r) => r.id)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(syncs.mock.calls.length).toBeGreaterThan(0);
    expect(syncs.mock.calls.length).toBeLessThan(50);
  });

  it('resolves appends in id order even when a later batch syncs first', async () => {
    const file = await journalPath();
    const journal = await EventJournal.open(file);
    const proto = Object.getPrototypeOf((journal as unknown as { jsonl: { handle: object } }).jsonl.handle) as { datasync: () => Promise<void> };
    const original = proto.datasync;
    let calls = 0;
    vi.spyOn(proto, 'datasync').mockImplementation(function (this: unknown) {
      const slow = calls++ === 0;
      return new Promise<void>((resolve) => setTimeout(resolve, slow ? 100 : 0)).then(() => original.call(this));
    });
    const resolved: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => journal.append(delivery('order.changed', { id: i })).then((e) => resolved.push(e.id))),
    );
    await journal.close();
    expect(calls).toBeGreaterThan(1);
    expect(resolved).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('resolves an append only after its record is in the file', async () => {
    const file = await journalPath();
    const journal = await EventJournal.open(file);
    const pending = Array.from({ length: 10 }, (_, i) =>
      journal.append(delivery('order.changed', { id: i })).then(async (event) => {
        const text = await readFile(file, 'utf8');
        expect(text).toContain(`"id":${event.id},`);
      }),
    );
    await Promise.all(pending);
    await journal.close();
  });

  it('leaves a torn last line in place, starts the next record on a fresh line, and numbers on', async () => {
    const file = await journalPath();
    let journal = await EventJournal.open(file);
    await journal.append(delivery('order.created', { id: 1 }));
    await journal.append(delivery('order.changed', { id: 1 }));
    await journal.close();
    await appendFile(file, '{"id":3,"received_at":"2025-01-0');

    journal = await EventJournal.open(file);
    expect(journal.recovered).toEqual({ tornBytes: 32, skippedLines: 0 });
    const next = await journal.append(delivery('shipping_order.changed', { id: 9 }));
    await journal.close();

    expect(next.id).toBe(3);
    const seen: JournalRecord[] = [];
    const scan = await scanJournal(file, (r) => seen.push(r));
    // Nothing is cut off (another process may be appending); the torn line is one unreadable line.
    expect(scan).toMatchObject({ lastId: 3, skippedLines: 1, tornBytes: 0 });
    expect(seen.map((r) => (r.type === 'event' ? [r.event.id, r.event.event] : r))).toEqual([
      [1, 'order.created'],
      [2, 'order.changed'],
      [3, 'shipping_order.changed'],
    ]);
  });

  it('skips and counts a line that is not a record', async () => {
    const file = await journalPath();
    const journal = await EventJournal.open(file);
    await journal.append(delivery('order.created', { id: 1 }));
    await journal.close();
    await appendFile(file, 'garbage\n{"id":"x"}\n');
    const seen: JournalRecord[] = [];
    const scan = await scanJournal(file, (r) => seen.push(r));
    expect(scan).toMatchObject({ lastId: 1, skippedLines: 2, tornBytes: 0 });
    expect(seen).toHaveLength(1);
  });

  it('reports events not yet delivered to all their targets, across a reopen', async () => {
    const file = await journalPath();
    let journal = await EventJournal.open(file);
    const a = await journal.append(delivery('order.created', { id: 1 }), ['http://t1/', 'http://t2/']);
    const b = await journal.append(delivery('order.changed', { id: 1 }), ['http://t1/']);
    await journal.append(delivery('order.changed', { id: 2 }));
    await journal.markDelivered(a.id, 'http://t1/');
    expect(journal.pending().map((p) => [p.event.id, p.targets])).toEqual([
      [a.id, ['http://t2/']],
      [b.id, ['http://t1/']],
    ]);
    await journal.close();

    journal = await EventJournal.open(file);
    expect(journal.pending().map((p) => [p.event.id, p.targets])).toEqual([
      [a.id, ['http://t2/']],
      [b.id, ['http://t1/']],
    ]);
    await journal.markDelivered(b.id, 'http://t1/');
    await journal.close();
    journal = await EventJournal.open(file);
    expect(journal.pending().map((p) => p.event.id)).toEqual([a.id]);
    await journal.close();
  });

  it('refuses appends after close', async () => {
    const file = await journalPath();
    const journal = await EventJournal.open(file);
    await journal.close();
    await expect(journal.append(delivery('order.created', {}))).rejects.toThrow(/closed/);
  });

  it('fails appends once a write has failed, instead of writing after a torn record', async () => {
    const file = await journalPath();
    const journal = await EventJournal.open(file);
    const handleProto = Object.getPrototypeOf((journal as unknown as { jsonl: { handle: object } }).jsonl.handle) as {
      appendFile: () => Promise<void>;
    };
    vi.spyOn(handleProto, 'appendFile').mockRejectedValueOnce(new Error('ENOSPC: no space left'));
    await expect(journal.append(delivery('order.created', {}))).rejects.toThrow(/ENOSPC/);
    vi.restoreAllMocks();
    await expect(journal.append(delivery('order.created', {}))).rejects.toThrow(/ENOSPC/);
    await journal.close();
  });
});
