import { describe, expect, it } from 'vitest';
import { COMPACTION, DeadLines } from '../../src/sandbox/compaction.js';
import type { JournalEntry } from '../../src/sandbox/journal.js';

// When the `--data` journal is compacted (src/sandbox/compaction.ts): by the bytes of its
// lines that no longer count, not by its size.

const MB = 1 << 20;
const order = (key: number): JournalEntry => ({ put: 'orders', key, value: {} });
const paid = (key: number): JournalEntry => ({ order: key, move: 'paid', at: '2026-01-01T00:00:00.000Z' });
const ids: JournalEntry = { ids: { order: 1, shipping_order: 1, line_item: 1, recipient: 1, custom_product: 1, webhook: 1 } };

function journal(lines: [JournalEntry, number][]): { dead: DeadLines; bytes: number } {
  const dead = new DeadLines();
  for (const [entry, bytes] of lines) dead.line(entry, bytes);
  return { dead, bytes: lines.reduce((sum, [, bytes]) => sum + bytes, 0) };
}

describe('--data compaction', () => {
  it('leaves a journal of orders created and paid alone, however long', () => {
    const lines: [JournalEntry, number][] = [];
    for (let key = 1; key <= 100; key++) lines.push([order(key), 2 * MB], [paid(key), 60], [ids, 150]);
    const { dead, bytes } = journal(lines);
    // Only the id counters written over: 99 lines.
    expect(dead.bytes).toBe(99 * 150);
    expect(dead.due(COMPACTION, 30_000, bytes)).toBe(false);
  });

  it('counts a record put again or removed, with its moves, and everything before a reset', () => {
    const rewritten = journal([[order(1), 2 * MB], [paid(1), 60], [order(1), 2 * MB]]);
    expect(rewritten.dead.bytes).toBe(2 * MB + 60);
    const removed = journal([[{ put: 'webhooks', key: 3, value: {} }, 100], [{ remove: 'webhooks', key: 3 }, 40]]);
    expect(removed.dead.bytes).toBe(140);
    // Keys of different types or collections are different records.
    expect(journal([[{ put: 'webhooks', key: 3, value: {} }, 100], [{ put: 'webhooks', key: '3', value: {} }, 100], [order(3), 100]]).dead.bytes).toBe(0);
    const reset = journal([[order(1), 500], [paid(1), 60], [{ reset: {} as never }, 1_000], [order(1), 500]]);
    expect(reset.dead.bytes).toBe(560);
  });

  it('is due once the dead lines are past the minimum and the rest of the files', () => {
    // 20 orders of 2 MB, each rewritten once: 40 MB dead, 40 MB live in the journal.
    const lines: [JournalEntry, number][] = [];
    for (let key = 1; key <= 20; key++) lines.push([order(key), 2 * MB]);
    for (let key = 1; key <= 20; key++) lines.push([order(key), 2 * MB]);
    const { dead, bytes } = journal(lines);
    expect(dead.bytes).toBe(40 * MB);
    expect(dead.due(COMPACTION, 0, bytes)).toBe(true);
    // A snapshot of more than that: the files are not yet half dead.
    expect(dead.due(COMPACTION, 1 * MB, bytes)).toBe(false);
    // Under the minimum: never due.
    const small = journal([[order(1), MB], [order(1), MB]]);
    expect(small.dead.due(COMPACTION, 0, 2 * MB)).toBe(false);
    expect(small.dead.due({ atBytes: 0, ofLive: 1 }, 0, 2 * MB)).toBe(true);
  });
});
