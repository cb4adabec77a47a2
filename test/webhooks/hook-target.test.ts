import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventJournal } from '../../src/webhooks/event-journal.js';
import { Forwarder } from '../../src/webhooks/forwarder.js';
import { deliveryWithoutToken, withoutToken } from '../../src/webhooks/hook-target.js';
import { replay } from '../../src/webhooks/replay.js';
import { tempDir } from '../support/temp-dir.js';
import { startTarget } from './helpers.js';

// Issue 41.2: the listener's secret is in the `?token=` of the target the service posts to,
// and so in each delivery's hook.target. The copy a listener journals and forwards carries
// the target without it.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SECRET = 'listener-secret-41';
const TARGET = `http://127.0.0.1:8787/?token=${SECRET}`;

function withTarget(target: string) {
  return { hook: { id: 7, event: 'order.changed', target }, data: { id: 42 } };
}

describe('hook.target without the token', () => {
  it('removes every token parameter and keeps the rest as it was', () => {
    expect(withoutToken(TARGET)).toBe('http://127.0.0.1:8787/');
    expect(withoutToken(`https://hooks.example.com/in?a=1&token=${SECRET}&b=x%20y#top`)).toBe('https://hooks.example.com/in?a=1&b=x%20y#top');
    expect(withoutToken('https://h/in?token=1&token=2')).toBe('https://h/in');
    expect(withoutToken('https://h/in?tokens=1&my_token=2')).toBe('https://h/in?tokens=1&my_token=2');
    expect(withoutToken('https://h/in#?token=1')).toBe('https://h/in#?token=1');
    expect(withoutToken('not a url ?token=1')).toBe('not a url ');
  });

  it('in the received JSON text too, where it is written as JSON.stringify writes it; else the delivery is to be written again', () => {
    const sent = withTarget(TARGET);
    const text = JSON.stringify(sent);
    const { delivery, json } = deliveryWithoutToken(sent, text);
    expect(delivery.hook.target).toBe('http://127.0.0.1:8787/');
    expect(sent.hook.target).toBe(TARGET);
    expect(JSON.parse(json!)).toEqual(delivery);
    // Escaped slashes (as PHP writes them): not found as written, so no text to reuse.
    expect(deliveryWithoutToken(sent, text.replaceAll('/', '\\/')).json).toBeUndefined();
  });

  it('the journaled copy (and so the printed one) carries no token, with and without the received text', async () => {
    const file = join(tempDir('merch-webhooks-'), 'events.jsonl');
    const journal = await EventJournal.open(file);
    const fast = await journal.append(withTarget(TARGET), [], new Date(), JSON.stringify(withTarget(TARGET)));
    const slow = await journal.append(withTarget(TARGET), [], new Date());
    await journal.close();
    for (const event of [fast, slow]) expect(event.hook.target).toBe('http://127.0.0.1:8787/');
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text.trimEnd().split('\n').map((line) => JSON.parse(line).hook.target)).toEqual(['http://127.0.0.1:8787/', 'http://127.0.0.1:8787/']);
  });

  it('the forwarded copy carries no token, nor a replayed one, even of an event journaled with it (before)', async () => {
    const target = await startTarget();
    cleanups.push(() => target.close());
    // A journal written by a version that kept the token.
    const file = join(tempDir('merch-webhooks-'), 'events.jsonl');
    const old = { id: 1, received_at: '2025-01-02T03:04:05.000Z', event: 'order.changed', ...withTarget(TARGET), forward_to: [target.url] };
    await writeFile(file, `${JSON.stringify(old)}\n`, { mode: 0o600 });
    const journal = await EventJournal.open(file);
    cleanups.push(() => journal.close());
    const forwarder = new Forwarder({ markDelivered: (id, to) => journal.markDelivered(id, to), timeoutMs: 1_000 });
    cleanups.push(() => forwarder.close());
    for (const { event, targets } of journal.pending()) forwarder.enqueue(event, targets);
    forwarder.enqueue(await journal.append(withTarget(TARGET), [target.url], new Date(), JSON.stringify(withTarget(TARGET))), [target.url]);
    await forwarder.idle();
    for await (const result of replay({ file, id: 1, to: target.url, timeoutMs: 1_000 })) expect(result.outcome).toBe('sent');

    expect(target.received).toHaveLength(3);
    for (const received of target.received) {
      expect(received.body).not.toContain(SECRET);
      expect(JSON.parse(received.body)).toEqual(withTarget('http://127.0.0.1:8787/'));
    }
  });
});
