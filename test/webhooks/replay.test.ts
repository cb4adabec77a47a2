import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventJournal } from '../../src/webhooks/event-journal.js';
import { replay, ReplayNotFoundError, type ReplayOptions, type ReplayResult } from '../../src/webhooks/replay.js';
import { freePort } from '../support/servers.js';
import { tempDir } from '../support/temp-dir.js';
import { delivery, startTarget, type Target } from './helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function target(): Promise<Target> {
  const t = await startTarget();
  cleanups.push(() => t.close());
  return t;
}

/** A journal of three events, the second forwarded to `forwardTo`. */
async function journalFile(forwardTo: string): Promise<string> {
  const file = join(tempDir('merch-webhooks-'), 'events.jsonl');
  const journal = await EventJournal.open(file);
  await journal.append(delivery('order.created', { id: 1 }));
  await journal.append(delivery('order.changed', { id: 1 }), [forwardTo]);
  await journal.append(delivery('shipping_order.changed', { id: 7 }));
  await journal.close();
  return file;
}

async function results(options: ReplayOptions): Promise<ReplayResult[]> {
  const all: ReplayResult[] = [];
  for await (const result of replay(options)) all.push(result);
  return all;
}

describe('replay', () => {
  it('resends every saved event to --to, in order, with the original body', async () => {
    const to = await target();
    const file = await journalFile('http://127.0.0.1:1/unused');
    const got = await results({ file, to: `${to.url}/x?k=v` });
    expect(got.map((r) => [r.id, r.outcome, r.detail])).toEqual([
      [1, 'sent', 'answered 204'],
      [2, 'sent', 'answered 204'],
      [3, 'sent', 'answered 204'],
    ]);
    expect(to.received.map((r) => JSON.parse(r.body).hook.event)).toEqual(['order.created', 'order.changed', 'shipping_order.changed']);
    expect(to.received[2]?.url).toBe('/x?k=v');
    expect(JSON.parse(to.received[2]?.body ?? '')).toEqual(delivery('shipping_order.changed', { id: 7 }));
  });

  it('resends one event by --id', async () => {
    const to = await target();
    const file = await journalFile('http://127.0.0.1:1/unused');
    expect((await results({ file, id: 3, to: to.url })).map((r) => [r.id, r.outcome])).toEqual([[3, 'sent']]);
    expect(JSON.parse(to.received[0]?.body ?? '').data).toEqual({ id: 7 });
  });

  it('without --to, resends to the targets each event was forwarded to, skipping the others', async () => {
    const original = await target();
    const file = await journalFile(`${original.url}/orig`);
    expect((await results({ file })).map((r) => [r.id, r.outcome])).toEqual([
      [1, 'skipped'],
      [2, 'sent'],
      [3, 'skipped'],
    ]);
    expect(original.received.map((r) => r.url)).toEqual(['/orig']);
  });

  it('reports a target that cannot be reached as failed', async () => {
    const file = await journalFile('http://127.0.0.1:1/unused');
    const got = await results({ file, id: 1, to: `http://127.0.0.1:${await freePort()}/` });
    expect(got.map((r) => [r.outcome, r.detail])).toEqual([['failed', 'connection refused']]);
  });

  it('refuses an id that is not in the journal', async () => {
    const file = await journalFile('http://127.0.0.1:1/unused');
    await expect(results({ file, id: 99, to: 'http://127.0.0.1:1/' })).rejects.toThrow(ReplayNotFoundError);
  });
});
