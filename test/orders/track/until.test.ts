import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/index.js';
import { cliEnv, merch, startMerch } from '../../support/run-merch.js';
import { createOrder, sandboxApi, useSandbox } from '../../support/sandbox.js';
import { freePort } from '../../support/servers.js';
import { despiteFaults } from '../follow/helpers.js';
import { useTempDirs } from '../../support/temp-dir.js';
import { batchedSend, orderIdsOf, type TrackRecord } from './helpers.js';

// `orders track --until` against the sandbox's lifecycle (--lifecycle: every order moves on
// by itself, Scheduled, Shipped with tracking, Delivered), and against one where only test
// controls move orders (cancel, never moving on).

const moving = useSandbox({ lifecycleSeconds: 0.1 });
const still = useSandbox({ eventDelayMs: 10 });
const dirs = useTempDirs();

const records = (stdout: string) => JSON.parse(stdout) as TrackRecord[];
let made = 0;
const newOrder = (sandbox: { url: string }) => createOrder(sandbox, `track-until-${process.pid}-${++made}`);

describe('orders track --until delivered, the sandbox moving orders on', () => {
  it('from a results file: polls until every recipient is delivered, then prints them (exit 0)', async () => {
    const send = await batchedSend(moving(), dirs(), { recipients: 5, batchSize: 2 });
    const result = await merch(moving(), ['orders', 'track', '--results', send.results, '--until', 'delivered', '--interval', '0.05', '--json']);
    expect(result.code).toBe(0);
    const got = records(result.stdout);
    expect(got.map((r) => r.row)).toEqual([2, 3, 4, 5, 6]);
    for (const record of got) {
      expect(record.status).toBe('Delivered');
      expect(record.tracking_number).toBe(`1ZSBX${String(record.shipping_order_id).padStart(10, '0')}`);
    }
    // stderr: a line per change while waiting (none per unchanged poll), then the summary.
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('5 shipments: 5 Delivered');
    for (const line of lines.slice(0, -1)) expect(line).toMatch(/^5 shipments: .* \(waiting for delivered, [\d.]+m?s\)$/);
    expect(new Set(lines).size).toBe(lines.length);
  });

  it('from --run: the same, by the run id', async () => {
    const send = await batchedSend(moving(), dirs(), { recipients: 3, batchSize: 2 });
    const result = await merch(moving(), ['orders', 'track', '--run', send.runId, '--until', 'delivered', '--interval', '0.05', '--format', 'csv']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\r\n');
    expect(lines).toHaveLength(4);
    for (const line of lines.slice(1)) expect(line).toContain(',Delivered,1ZSBX');
  });

  it('from ids: --until shipped stops once every shipment has shipped', async () => {
    const ids = [(await newOrder(moving())).id, (await newOrder(moving())).id];
    const result = await merch(moving(), ['orders', 'track', ...ids.map(String), '--until', 'shipped', '--interval', '0.05', '--json']);
    expect(result.code).toBe(0);
    for (const record of records(result.stdout)) expect(['Shipped', 'Delivered']).toContain(record.status);
  });
});

describe('orders track --until, where it cannot get there', () => {
  it('--max-wait passes: exit 6, naming how many are not there and which', async () => {
    const send = await batchedSend(still(), dirs(), { recipients: 3, batchSize: 3 });
    const [orderId] = await orderIdsOf(still(), send.runId, 1);
    const order = (await sandboxApi(still(), `/v1/orders/${orderId}`)).body;
    for (const _ of [1, 2]) await sandboxApi(still(), `/_sandbox/shipping-orders/${order.shipping_orders[0].id}/advance`, { method: 'POST' });
    const result = await merch(still(), ['orders', 'track', '--results', send.results, '--until', 'shipped', '--max-wait', '2s', '--interval', '0.1']);
    expect(result.code).toBe(6);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(4);
    const [second, third] = order.shipping_orders.slice(1).map((s: { id: number }) => s.id);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^3 shipments: 2 Created, 1 Shipped \(waiting for shipped, [\d.]+m?s\)$/);
    expect(lines.slice(1)).toEqual([
      '3 shipments: 2 Created, 1 Shipped',
      `error: 2 of 3 shipments not shipped after 2s: row 3 (shipment ${second}, order ${orderId}): Created, row 4 (shipment ${third}, order ${orderId}): Created`,
      'hint: wait longer with --max-wait (e.g. --max-wait 2h)',
    ]);
  });

  it('a cancelled order: its shipments are named and the wait ends at once, exit 5', async () => {
    const kept = await newOrder(still());
    const cancelled = await newOrder(still());
    expect((await sandboxApi(still(), `/_sandbox/orders/${cancelled.id}/cancel`, { method: 'POST' })).status).toBe(200);
    const started = Date.now();
    const result = await merch(still(), ['orders', 'track', String(kept.id), String(cancelled.id), '--until', 'delivered', '--max-wait', '1h', '--interval', '0.05', '--json']);
    expect(result.code).toBe(5);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(records(result.stdout)).toHaveLength(4);
    const [a, b] = cancelled.shipping_orders.map((s: { id: number }) => s.id);
    expect(result.stderr).toMatch(new RegExp(`\\nerror: 2 shipments can never be delivered: shipment ${a} \\(order ${cancelled.id}\\): its order is cancelled, shipment ${b} \\(order ${cancelled.id}\\): its order is cancelled\\n$`));
  });

  it('an unknown order id: exit 4 at once, the others shown', async () => {
    const order = await newOrder(still());
    const result = await merch(still(), ['orders', 'track', String(order.id), '999998', '--until', 'delivered', '--max-wait', '1h', '--interval', '0.05', '--jsonl']);
    expect(result.code).toBe(4);
    expect(result.stdout.trim().split('\n')).toHaveLength(2);
    // The error first, then the others (issue 42.5: --until prints its error before any table).
    expect(result.stderr).toMatch(/^error: order 999998 was not found \(the other orders are shown\)\n/);
  });
});

describe('orders track --until, interrupted', () => {
  it('Ctrl-C: the records as they stand, then exit 130 saying how many are not there', async () => {
    const order = await newOrder(still());
    const running = startMerch(['orders', 'track', String(order.id), '--until', 'delivered', '--interval', '0.05', '--jsonl'], { env: cliEnv(still().url) });
    await running.io.written((_, err) => err.includes('(waiting for delivered, '));
    running.interrupt();
    const result = await running.done;
    expect(result.code).toBe(130);
    expect(result.stdout.trim().split('\n').map((line) => JSON.parse(line).shipping_order_id)).toEqual(order.shipping_orders.map((s: { id: number }) => s.id));
    expect(result.stderr).toMatch(/\nerror: interrupted after [\d.]+m?s; 2 of 2 shipments not delivered\n$/);
  });
});

describe('orders track --until when the service fails', () => {
  it('a refused connection stops at once (exit 1), not at --max-wait', async () => {
    const port = await freePort();
    const started = Date.now();
    const result = await merch({ url: `http://127.0.0.1:${port}` }, ['orders', 'track', '1001', '--until', 'delivered', '--max-wait', '1h', '--interval', '0.05']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/connection refused/);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('an auth failure stops at once (exit 3)', async () => {
    const order = await newOrder(still());
    const result = await merch(still(), ['orders', 'track', String(order.id), '--until', 'delivered', '--max-wait', '1h', '--interval', '0.05'], { env: { MERCH_TOKEN: 'not-a-token' } });
    expect(result.code).toBe(3);
  });

  it('429 answers: each order is polled again no sooner than its Retry-After, and the wait gets there', async () => {
    const sandbox = await startSandbox({ port: 0, quiet: true, lifecycleSeconds: 0.1, faults: 0.3, faultKinds: ['status_429'], seed: 11 });
    try {
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) ids.push((await despiteFaults(() => newOrder(sandbox))).id);
      const result = await merch(sandbox, ['orders', 'track', ...ids.map(String), '--until', 'shipped', '--interval', '0.05', '--retries', '6', '--json']);
      expect(result.code).toBe(0);
      let throttled = 0;
      for (const id of ids) {
        const polls = sandbox.requests.filter((request) => request.path === `/v1/orders/${id}`);
        for (let i = 0; i + 1 < polls.length; i++) {
          if (polls[i]!.status !== 429) continue;
          throttled++;
          // The sandbox answers 429 with Retry-After: 1 (second); timers may fire a little early.
          expect(polls[i + 1]!.at - polls[i]!.at).toBeGreaterThanOrEqual(990);
        }
      }
      expect(throttled).toBeGreaterThan(0);
    } finally {
      await sandbox.close();
    }
  });
});
