import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Forwarder } from '../../src/webhooks/forwarder.js';
import { EventJournal } from '../../src/webhooks/event-journal.js';
import { freePort } from '../support/servers.js';
import { tempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait-for.js';
import { delivery, startTarget, type Target } from './helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openJournal(): Promise<{ journal: EventJournal; file: string }> {
  const file = join(tempDir('merch-webhooks-'), 'events.jsonl');
  const journal = await EventJournal.open(file);
  cleanups.push(() => journal.close());
  return { journal, file };
}

function forwarderFor(journal: EventJournal, retries: string[] = []): Forwarder {
  const forwarder = new Forwarder({
    markDelivered: (id, target) => journal.markDelivered(id, target),
    backoff: { initialMs: 20, maxMs: 100 },
    timeoutMs: 1_000,
    onRetry: (_event, _target, problem) => retries.push(problem),
  });
  cleanups.push(() => forwarder.close());
  return forwarder;
}

async function track(target: Target): Promise<Target> {
  cleanups.push(() => target.close());
  return target;
}

describe('Forwarder', () => {
  it('posts the original {hook, data} body, keeps the target query string, and marks delivery', async () => {
    const { journal } = await openJournal();
    const target = await track(await startTarget());
    const url = `${target.url}/hook?key=abc&x=1`;
    const event = await journal.append(delivery('order.changed', { id: 42, note: 'é' }), [url]);
    const forwarder = forwarderFor(journal);
    forwarder.enqueue(event, [url]);
    await forwarder.idle();

    expect(target.received).toHaveLength(1);
    expect(target.received[0]?.url).toBe('/hook?key=abc&x=1');
    expect(JSON.parse(target.received[0]?.body ?? '')).toEqual({ hook: event.hook, data: event.data });
    expect(target.received[0]?.headers['content-type']).toBe('application/json');
    expect(target.received[0]?.headers['x-merch-event-id']).toBe(String(event.id));
    expect(journal.pending()).toEqual([]);
  });

  it('survives a target that refuses connections for a while, then delivers in order', async () => {
    const { journal } = await openJournal();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/in`;
    const retries: string[] = [];
    const forwarder = forwarderFor(journal, retries);
    for (let i = 1; i <= 3; i++) {
      forwarder.enqueue(await journal.append(delivery('order.changed', { id: i }), [url]), [url]);
    }
    await waitFor(() => retries.length >= 3);
    expect(retries[0]).toBe('connection refused');
    expect(journal.pending()).toHaveLength(3);

    const target = await track(await startTarget(() => 204, port));
    await forwarder.idle();
    expect(target.received.map((r) => JSON.parse(r.body).data.id)).toEqual([1, 2, 3]);
    expect(journal.pending()).toEqual([]);
  });

  it('retries on a non-2xx answer and keeps later events waiting behind it', async () => {
    const { journal } = await openJournal();
    let answers = [500, 503];
    const target = await track(await startTarget(() => answers.shift() ?? 200));
    const retries: string[] = [];
    const forwarder = forwarderFor(journal, retries);
    for (let i = 1; i <= 2; i++) {
      forwarder.enqueue(await journal.append(delivery('order.changed', { id: i }), [target.url]), [target.url]);
    }
    await forwarder.idle();
    expect(retries).toEqual(['answered 500', 'answered 503']);
    expect(target.received.map((r) => JSON.parse(r.body).data.id)).toEqual([1, 2]);
    answers = [];
  });

  it('does not let a target that is down hold up another target', async () => {
    const { journal } = await openJournal();
    const down = `http://127.0.0.1:${await freePort()}/`;
    const up = await track(await startTarget());
    const forwarder = forwarderFor(journal);
    const event = await journal.append(delivery('order.created', { id: 1 }), [down, up.url]);
    forwarder.enqueue(event, [down, up.url]);
    // Delivered to the live target and marked so (the mark follows the answer), while the other retries.
    await waitFor(() => up.received.length === 1 && journal.pending()[0]?.targets.length === 1, 'the live target marked delivered');
    expect(journal.pending().map((p) => p.targets)).toEqual([[down]]);
  });

  it('resumes events left undelivered by a previous run', async () => {
    const { journal, file } = await openJournal();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/`;
    const retries: string[] = [];
    const first = forwarderFor(journal, retries);
    for (let i = 1; i <= 3; i++) first.enqueue(await journal.append(delivery('order.changed', { id: i }), [url]), [url]);
    await waitFor(() => retries.length > 0);
    await first.close();
    await journal.close();

    const reopened = await EventJournal.open(file);
    cleanups.push(() => reopened.close());
    expect(reopened.pending().map((p) => p.event.id)).toEqual([1, 2, 3]);
    const target = await track(await startTarget(() => 204, port));
    const second = forwarderFor(reopened);
    for (const p of reopened.pending()) second.enqueue(p.event, p.targets);
    await second.idle();
    expect(target.received.map((r) => JSON.parse(r.body).data.id)).toEqual([1, 2, 3]);
    expect(reopened.pending()).toEqual([]);
  });

  it('stops retrying at once on close, leaving the event pending', async () => {
    const { journal } = await openJournal();
    const url = `http://127.0.0.1:${await freePort()}/`;
    let retrying = false;
    const forwarder = new Forwarder({ backoff: { initialMs: 60_000, maxMs: 60_000 }, onRetry: () => (retrying = true) });
    forwarder.enqueue(await journal.append(delivery('order.created', {}), [url]), [url]);
    await waitFor(() => retrying);
    const started = Date.now();
    await forwarder.close();
    // It did not wait out the 60 s backoff (the bound is generous: a loaded machine is slow).
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(journal.pending()).toHaveLength(1);
  });
});
