import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { cliEnv, startMerch } from '../../support/run-merch.js';
import { sandboxApi, useSandbox } from '../../support/sandbox.js';
import { tempDir } from '../../support/temp-dir.js';
import { waitFor } from '../../support/wait-for.js';
import { orderMaker } from './helpers.js';

// Issue 41.3: events are hints, the service is the truth. A listener's journal holds
// whatever was posted to it; `orders watch --events` reads the order from the service
// before it shows what an event says, and an event the service does not confirm is a
// note, never the end of the watch.

const sandbox = useSandbox({ eventDelayMs: 10, deliveryRetryBaseMs: 50 });
const newOrder = orderMaker('forged');

/** `merch webhooks listen --port 0 --print-target ...args` in-process: its target, its journal; stopped when the test ends. */
async function startListener(args: string[]): Promise<{ target: string; journal: string; errors: () => string }> {
  const journal = join(tempDir('merch-forged-'), 'events.jsonl');
  const listener = startMerch(['webhooks', 'listen', '--port', '0', '--print-target', '--journal', journal, ...args], { env: cliEnv(sandbox().url) });
  onTestFinished(async () => {
    listener.interrupt();
    await listener.done;
  });
  await Promise.race([listener.io.written((_out, err) => /ready; Ctrl-C to stop/.test(err)), listener.done]);
  return { target: listener.io.out().split('\n')[0]!, journal, errors: () => listener.io.errors() };
}

/** What a forger posts: the order Delivered, every shipment too, newer than anything the service said. */
function forgedDelivery(order: { id: number; shipping_orders: { id: number }[] }, target: string): string {
  const delivered = { id: 4, name: 'Delivered' };
  const data = {
    id: order.id,
    status: delivered,
    modified_on: '2099-01-01T00:00:00.000Z',
    shipping_orders: order.shipping_orders.map((s) => ({ id: s.id, order: order.id, status: delivered, tracking_number: '1ZFORGED' })),
  };
  return JSON.stringify({ hook: { id: 1, event: 'order.changed', target }, data });
}

const post = (url: string, body: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((r) => r.status);
const journaled = (file: string) => readFileSync(file, 'utf8').split('\n').filter((line) => line.includes('"received_at"')).length;

async function inProduction(): Promise<{ id: number; shipping_orders: { id: number }[] }> {
  const order = await newOrder(sandbox());
  await waitFor(async () => (await sandboxApi(sandbox(), `/v1/orders/${order.id}`)).body.status.name === 'In Production', 'the order to be paid');
  return order;
}

describe('a forged order.changed Delivered posted to a listener', () => {
  it('by default the listener has a secret: the unauthenticated post is refused (401), nothing journaled', async () => {
    const order = await inProduction();
    const { target, journal, errors } = await startListener([]);
    const bare = target.replace(/\?.*$/, '');
    expect(target).toMatch(/\?token=[\w-]{24}$/);
    expect(await post(bare, forgedDelivery(order, bare))).toBe(401);
    await waitFor(() => errors().includes('refused 401'), 'the refusal on stderr');
    expect(journaled(journal)).toBe(0);
  });

  it('with --no-secret it is journaled, but `orders watch --events` shows the service state, notes the event once, and does not end on it', async () => {
    const order = await inProduction();
    // Subscribed too: the sandbox's real deliveries arrive in the same journal.
    const { target, journal } = await startListener(['--no-secret', '--subscribe']);
    expect(target).not.toContain('token=');
    const before = sandbox().requests.length;
    const watch = startMerch(['orders', 'watch', String(order.id), '--journal', journal, '--interval', '1h'], { env: cliEnv(sandbox().url) });
    onTestFinished(() => watch.interrupt());
    await watch.io.written((out) => out.includes('\n'));

    // The attack: one unauthenticated local POST, journaled by the open listener.
    expect(await post(target, forgedDelivery(order, target))).toBe(204);
    await waitFor(() => journaled(journal) === 1, 'the forged event journaled');
    const [first, second] = order.shipping_orders.map((s) => s.id) as [number, number];
    const note =
      `order ${order.id}: an order.changed event said Delivered, shipment ${first} Delivered, shipment ${second} Delivered, ` +
      `the service says In Production, shipment ${first} Created, shipment ${second} Created; going by the service\n`;
    await watch.io.written((_out, err) => err.includes(note));
    // Posted again: the same claim is neither asked about nor noted again. Then a real
    // change, which the watch reads after the repeat (the journal is read in order).
    expect(await post(target, forgedDelivery(order, target))).toBe(204);
    await waitFor(() => journaled(journal) === 2, 'the second forged event journaled');
    expect((await sandboxApi(sandbox(), `/_sandbox/shipping-orders/${first}/advance`, { method: 'POST' })).status).toBe(200);
    await watch.io.written((out) => out.includes('"Scheduled"'));

    watch.interrupt();
    const result = await watch.done;
    expect(result.code).toBe(130);
    expect(result.stderr).toBe(note);
    const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((line) => line.status)).toEqual(['In Production', 'In Production']);
    expect(lines[1].shipments.map((s: { status: string }) => s.status)).toEqual(['Scheduled', 'Created']);
    expect(result.stdout).not.toContain('Delivered');
    expect(result.stdout).not.toContain('1ZFORGED');
    // The first poll, one read for the forged event (none for its repeat), one for the real change.
    const reads = sandbox().requests.slice(before).filter((r) => r.path === `/v1/orders/${order.id}` && r.method === 'GET');
    expect(reads).toHaveLength(3);
  });

  it('on a terminal, the note is under the table and the order is drawn as the service has it', async () => {
    const order = await inProduction();
    const { target, journal } = await startListener(['--no-secret']);
    const watch = startMerch(['orders', 'watch', String(order.id), '--journal', journal, '--interval', '1h'], { tty: true, columns: 250, env: cliEnv(sandbox().url, { NO_COLOR: '1' }) });
    onTestFinished(() => watch.interrupt());
    await watch.io.written((out) => out.includes('Tracking number'));
    expect(await post(target, forgedDelivery(order, target))).toBe(204);
    await watch.io.written((out) => out.includes('going by the service'));
    watch.interrupt();
    const result = await watch.done;
    expect(result.code).toBe(130);
    const screen = watch.io.screen();
    const last = screen.slice(screen.lastIndexOf('\u001b[0J'));
    expect(last).toMatch(new RegExp(`^\\u001b\\[0Jorder ${order.id}: In Production \\(updated [^)]*\\)\\n`));
    expect(last).toMatch(/\norder \d+: an order\.changed event said Delivered, .*; going by the service\n$/);
    expect(last).not.toContain('1ZFORGED');
  });
});
