import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startSandbox } from '../../../src/sandbox/index.js';
import { cliEnv, merch, startMerch } from '../../support/run-merch.js';
import { requestsDuring, sandboxApi, useSandbox } from '../../support/sandbox.js';
import { plain } from '../../support/output.js';
import { tempDir } from '../../support/temp-dir.js';
import { waitFor } from '../../support/wait-for.js';
import { answeringServer, json } from '../../support/failing-servers.js';
import { despiteFaults, orderMaker } from './helpers.js';

/** The sandbox's tracking number of a shipping order. */
const tracking = (id: number) => `1ZSBX${String(id).padStart(10, '0')}`;

// `orders watch`, in-process against a sandbox where only test controls move orders on, so
// each change, and each stale event, is the test's.

const still = useSandbox({ eventDelayMs: 10, deliveryRetryBaseMs: 50 });

const newOrder = orderMaker('watch');

interface Change {
  at: string;
  order: number;
  status: string;
  shipments: { id: number; status: string; tracking_number: string | null; tracking_url: string | null }[];
}

const changes = (stdout: string): Change[] => stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Change);
const shipmentStates = (change: Change) => change.shipments.map((s) => `${s.id}:${s.status}:${s.tracking_number ?? '-'}`).join(' ');

/** `merch webhooks listen --subscribe` in-process, journaling to a fresh file; stopped when the test ends. */
async function startListener(sandbox: { url: string }): Promise<string> {
  const journal = join(tempDir('merch-watch-'), 'events.jsonl');
  const listener = startMerch(['webhooks', 'listen', '--port', '0', '--subscribe', '--journal', journal], { env: cliEnv(sandbox.url) });
  onTestFinished(async () => {
    listener.interrupt();
    await listener.done;
  });
  await listener.io.written((_out, err) => /ready; Ctrl-C to stop/.test(err));
  return journal;
}

const journalEvents = (file: string) => readFileSync(file, 'utf8').split('\n').filter((line) => line.includes('"received_at"')).length;

describe('orders watch, piped', () => {
  it('polls: one JSON line per change, each once, in order, until every shipment is delivered (exit 0)', async () => {
    const order = await newOrder(still());
    const [first, second] = order.shipping_orders.map((s: { id: number }) => s.id) as [number, number];
    const watch = startMerch(['orders', 'watch', String(order.id), '--interval', '0.05'], { env: cliEnv(still().url) });
    onTestFinished(() => watch.interrupt());
    const steps = [first, first, second, first, second, second];
    for (const [done, id] of steps.entries()) {
      await watch.io.written((out) => out.split('\n').length > done + 1);
      expect((await sandboxApi(still(), `/_sandbox/shipping-orders/${id}/advance`, { method: 'POST' })).status).toBe(200);
    }
    const result = await watch.done;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = changes(result.stdout);
    for (const line of lines) {
      expect(line.order).toBe(order.id);
      expect(new Date(line.at).toISOString()).toBe(line.at);
    }
    expect(lines.map(shipmentStates)).toEqual([
      `${first}:Created:- ${second}:Created:-`,
      `${first}:Scheduled:- ${second}:Created:-`,
      `${first}:Shipped:${tracking(first)} ${second}:Created:-`,
      `${first}:Shipped:${tracking(first)} ${second}:Scheduled:-`,
      `${first}:Delivered:${tracking(first)} ${second}:Scheduled:-`,
      `${first}:Delivered:${tracking(first)} ${second}:Shipped:${tracking(second)}`,
      `${first}:Delivered:${tracking(first)} ${second}:Delivered:${tracking(second)}`,
    ]);
    expect(lines[0]!.shipments[0]!.tracking_url).toBeNull();
    expect(lines.at(-1)!.shipments[0]!.tracking_url).toBe(`https://tracking.merch-sandbox.invalid/track/${tracking(first)}`);
  });

  it('takes changes from a webhooks listen journal as they arrive (each read from the service, once), and ignores stale events delivered after newer ones', async () => {
    const order = await newOrder(still());
    const [first, second] = order.shipping_orders.map((s: { id: number }) => s.id) as [number, number];
    await waitFor(async () => (await sandboxApi(still(), `/v1/orders/${order.id}`)).body.status.name === 'In Production', 'the order to be paid');
    const journal = await startListener(still());
    // Polls every hour: after the first, every change must come from the journal (each a reason to read the order).
    const before = still().requests.length;
    const watch = startMerch(['orders', 'watch', String(order.id), '--journal', journal, '--interval', '1h'], { env: cliEnv(still().url) });
    onTestFinished(() => watch.interrupt());
    const printed = (count: number) => watch.io.written((out) => out.split('\n').length > count);
    const control = async (path: string, body?: unknown) => {
      const journaled = journalEvents(journal);
      expect((await sandboxApi(still(), path, { method: 'POST', body })).status).toBe(200);
      await waitFor(() => journalEvents(journal) > journaled, `the listener to journal ${path}`);
    };
    await printed(1);
    await control(`/_sandbox/shipping-orders/${first}/advance`);
    await printed(2);
    await control(`/_sandbox/shipping-orders/${first}/advance`);
    await printed(3);
    // Late deliveries of older states: the shipment as created, the order as created.
    await control('/_sandbox/events', { event: 'shipping_order.changed', id: first, stale: true });
    await control('/_sandbox/events', { event: 'order.changed', id: order.id, stale: true });
    await control(`/_sandbox/shipping-orders/${second}/advance`);
    await printed(4);
    for (const [done, id] of [second, second, first].entries()) {
      await control(`/_sandbox/shipping-orders/${id}/advance`);
      await printed(5 + done);
    }
    const result = await watch.done;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = changes(result.stdout);
    expect(lines.map(shipmentStates)).toEqual([
      `${first}:Created:- ${second}:Created:-`,
      `${first}:Scheduled:- ${second}:Created:-`,
      `${first}:Shipped:${tracking(first)} ${second}:Created:-`,
      `${first}:Shipped:${tracking(first)} ${second}:Scheduled:-`,
      `${first}:Shipped:${tracking(first)} ${second}:Shipped:${tracking(second)}`,
      `${first}:Shipped:${tracking(first)} ${second}:Delivered:${tracking(second)}`,
      `${first}:Delivered:${tracking(first)} ${second}:Delivered:${tracking(second)}`,
    ]);
    expect(lines.map((line) => line.status)).toEqual(Array(7).fill('In Production'));
    // One poll, then one read per event that changed what is shown; the stale ones cost nothing.
    expect(still().requests.slice(before).filter((r) => r.path === `/v1/orders/${order.id}` && r.method === 'GET')).toHaveLength(lines.length);
  });

  it('outlives a service that fails now and then: each failure is a notice on stderr, polling goes on', async () => {
    const flaky = await startSandbox({ port: 0, quiet: true, lifecycleSeconds: 0.2, faults: 0.4, faultKinds: ['status_503'], seed: 3 });
    try {
      const order = await despiteFaults(() => newOrder(flaky));
      const result = await merch(flaky, ['orders', 'watch', String(order.id), '--interval', '0.05', '--retries', '0']);
      expect(result.code).toBe(0);
      const notice = new RegExp(`^GET /v1/orders/${order.id} failed: 503 Service Unavailable.*; polling on$`, 'm');
      expect(result.stderr).toMatch(notice);
      expect(changes(result.stdout).at(-1)!.status).toBe('Delivered');
      expect(flaky.requests.some((r) => r.path === `/v1/orders/${order.id}` && r.status === 503)).toBe(true);
    } finally {
      await flaky.close();
    }
  });

  it('exit 5 when the order is cancelled', async () => {
    const order = await newOrder(still());
    await sandboxApi(still(), `/_sandbox/orders/${order.id}/cancel`, { method: 'POST' });
    const result = await merch(still(), ['orders', 'watch', String(order.id), '--interval', '0.05']);
    expect(result.code).toBe(5);
    expect(changes(result.stdout).at(-1)!.status).toBe('Cancelled');
    expect(result.stderr).toBe(`error: order ${order.id} is cancelled: its shipments will never be delivered\n`);
  });

  it('Ctrl-C ends it with exit 130 and nothing on stderr', async () => {
    const order = await newOrder(still());
    const watch = startMerch(['orders', 'watch', String(order.id), '--interval', '0.05'], { env: cliEnv(still().url) });
    await watch.io.written((out) => out.includes('\n'));
    watch.interrupt();
    const result = await watch.done;
    expect(result.code).toBe(130);
    expect(result.stderr).toBe('');
    expect(changes(result.stdout)[0]!.order).toBe(order.id);
  });

  it.each([
    [['orders', 'watch', 'x1'], /argument 'id'.*positive integer/],
    [['orders', 'watch', '1001', '--interval', 'soon'], /--interval.*expected a duration/],
    [['orders', 'watch', '1001', '--journal', '/nonexistent/events.jsonl'], /--journal: no journal at \/nonexistent\/events.jsonl/],
  ])('%j is a usage error (exit 2) with nothing sent', async (argv, message) => {
    const { result, requests } = await requestsDuring(still(), () => merch(still(), argv));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(requests).toEqual([]);
  });
});

describe('orders watch on a terminal', () => {
  it('draws a table of the shipments and redraws it in place at each change', async () => {
    const order = await newOrder(still());
    const watch = startMerch(['orders', 'watch', String(order.id), '--interval', '0.05'], { tty: true, columns: 200, env: cliEnv(still().url) });
    onTestFinished(() => watch.interrupt());
    const ids = order.shipping_orders.map((s: { id: number }) => s.id) as number[];
    for (const [done, id] of [...ids, ...ids, ...ids].entries()) {
      await watch.io.written((out) => out.split('Tracking number').length > done + 1);
      await sandboxApi(still(), `/_sandbox/shipping-orders/${id}/advance`, { method: 'POST' });
    }
    const result = await watch.done;
    expect(result.code).toBe(0);
    const screen = watch.io.screen();
    expect(screen).toMatch(new RegExp(`order ${order.id}: In Production \\(updated \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}; Ctrl-C to stop\\)`));
    // Redrawn: the cursor goes back up over the previous table, which is erased; once more at the end, without "Ctrl-C to stop".
    expect(screen.match(/\u001b\[\d+A\r\u001b\[0J/g)).toHaveLength(7);
    const last = screen.slice(screen.lastIndexOf('\u001b[0J'));
    expect(last).toMatch(new RegExp(`^\\u001b\\[0Jorder ${order.id}: In Production \\(updated \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}\\)\\n`));
    for (const id of ids) expect(screen).toContain(`1ZSBX${String(id).padStart(10, '0')}`);
  });

  it('a passing failure is a notice under the table, redrawn (not a line through it)', async () => {
    // Orders here stay In Production: the watch goes on until the test has seen a notice.
    const flaky = await startSandbox({ port: 0, quiet: true, eventDelayMs: 10, faults: 0.4, faultKinds: ['status_503'], seed: 3 });
    try {
      const order = await despiteFaults(() => newOrder(flaky));
      const watch = startMerch(['orders', 'watch', String(order.id), '--interval', '0.05', '--retries', '0'], { tty: true, columns: 200, env: cliEnv(flaky.url) });
      // The table's last row (a shipment's id first), then the notice on the next line.
      const noticeUnderTable = new RegExp(`\\n\\d+  [^\\n]*\\nGET /v1/orders/${order.id} failed: 503 Service Unavailable.*; polling on\\n`);
      await watch.io.written((out) => noticeUnderTable.test(plain(out)));
      watch.interrupt();
      expect((await watch.done).code).toBe(130);
    } finally {
      await flaky.close();
    }
  });

  it('a table taller than the terminal is cut to its height and every line to its width, so each redraw goes back over all of it', async () => {
    const shipments = (status: string) =>
      Array.from({ length: 12 }, (_, i) => ({ id: 7001 + i, status: { id: 1, name: status }, tracking_number: `1ZLONG${i}`, tracking_url: `https://tracking.example.invalid/a/very/long/path/${'x'.repeat(60)}` }));
    const service = await answeringServer((_req, res) => {
      const status = service.requests() === 1 ? 'Shipped' : 'Delivered';
      json(res, 200, { id: 5, status: { id: 1, name: status }, shipping_orders: shipments(status) });
    });
    const watch = startMerch(['orders', 'watch', '5', '--interval', '0.05'], { tty: true, columns: 80, rows: 10, env: cliEnv(service.url, { NO_COLOR: '1' }) });
    const result = await watch.done;
    expect(result.code).toBe(0);
    const drawings = watch.io.screen().split(/\u001b\[\d+A\r\u001b\[0J/);
    const ups = [...watch.io.screen().matchAll(/\u001b\[(\d+)A/g)].map((m) => Number(m[1]));
    expect(drawings).toHaveLength(3); // the two changes, then the last drawing without "Ctrl-C to stop"
    for (const [i, drawing] of drawings.entries()) {
      const lines = drawing.split('\n').slice(0, -1);
      expect(lines.length).toBeLessThanOrEqual(9);
      for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
      if (i > 0) expect(ups[i - 1]).toBe(drawings[i - 1]!.split('\n').length - 1); // up exactly over the last drawing
    }
    expect(drawings[0]).toMatch(/\.\.\. and \d+ more shipments \(\d+ Shipped\)/);
    expect(drawings[2]).toMatch(/^order 5: Delivered \(updated \d{4}-\d{2}-\d{2} \d{2}:\d{2}\)\n/);
  });
});
