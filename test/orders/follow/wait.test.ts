import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/index.js';
import { merch } from '../../support/run-merch.js';
import { requestsDuring, sandboxApi, useSandbox } from '../../support/sandbox.js';
import { despiteFaults, orderMaker } from './helpers.js';

// `orders wait` against sandboxes that move orders on by themselves (--lifecycle), in-process.

const moving = useSandbox({ lifecycleSeconds: 0.1 });
/** Orders here are paid (In Production) and go no further. */
const still = useSandbox({ eventDelayMs: 10 });

const newOrder = orderMaker('wait');

describe('orders wait', () => {
  it.each(['in-production', 'shipped', 'delivered'] as const)('reaches %s, then prints the order as orders get does (piped: nothing else)', async (state) => {
    const order = await newOrder(moving());
    const result = await merch(moving(), ['orders', 'wait', String(order.id), '--until', state, '--interval', '0.05']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`ID\t${order.id}\n`);
    expect(result.stdout).toContain('# shipping_orders');
    const now = (await sandboxApi(moving(), `/v1/orders/${order.id}`)).body;
    const expected = { 'in-production': ['In Production', 'Shipped', 'Delivered'], shipped: ['Shipped', 'Delivered'], delivered: ['Delivered'] }[state];
    expect(expected).toContain(now.status.name);
  });

  it('--json prints the order as the service sent it', async () => {
    const order = await newOrder(moving());
    const result = await merch(moving(), ['orders', 'wait', String(order.id), '--until', 'shipped', '--interval', '0.05', '--json']);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed.id).toBe(order.id);
    for (const shipping of printed.shipping_orders) expect(shipping.tracking_number).toMatch(/^1ZSBX/);
  });

  it('exit 6 when --max-wait passes, saying where the order stands', async () => {
    const order = await newOrder(still());
    const result = await merch(still(), ['orders', 'wait', String(order.id), '--until', 'shipped', '--max-wait', '1s', '--interval', '0.1']);
    expect(result.code).toBe(6);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^error: order ${order.id} is not shipped after 1s: (Pending|In Production); 0 of 2 shipments shipped, 0 delivered\\nhint: wait longer with --max-wait`));
  });

  it('exit 5 when the order is cancelled: it can never get there', async () => {
    const order = await newOrder(still());
    expect((await sandboxApi(still(), `/_sandbox/orders/${order.id}/cancel`, { method: 'POST' })).status).toBe(200);
    const result = await merch(still(), ['orders', 'wait', String(order.id), '--until', 'delivered', '--interval', '0.1']);
    expect(result.code).toBe(5);
    expect(result.stderr).toBe(`error: order ${order.id} can never be delivered: Cancelled; 0 of 2 shipments shipped, 0 delivered\n`);
  });

  it('exit 4 for an order that does not exist', async () => {
    const result = await merch(still(), ['orders', 'wait', '999999', '--until', 'shipped', '--interval', '0.1']);
    expect(result.code).toBe(4);
  });

  it.each([
    [['orders', 'wait', 'abc', '--until', 'shipped'], /argument 'id'.*positive integer/],
    [['orders', 'wait', '0', '--until', 'shipped'], /positive integer/],
    [['orders', 'wait', '1001', '--until', 'arrived'], /--until.*in-production, shipped, delivered/],
    [['orders', 'wait', '1001'], /--until <state>' not specified/],
    [['orders', 'wait', '1001', '--until', 'shipped', '--max-wait', '5x'], /--max-wait.*expected a duration in ms, s, m, h or d/],
    [['orders', 'wait', '1001', '--until', 'shipped', '--interval', '0'], /--interval.*above 0/],
  ])('%j is a usage error (exit 2) with nothing sent', async (argv, message) => {
    const { result, requests } = await requestsDuring(still(), () => merch(still(), argv));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(requests).toEqual([]);
  });

  it('on a terminal, one live status line on stderr while waiting', async () => {
    const order = await newOrder(moving());
    const result = await merch(moving(), ['orders', 'wait', String(order.id), '--until', 'delivered', '--interval', '0.05'], { tty: { stderr: true } });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(new RegExp(`\\r\\u001b\\[2Korder ${order.id}: .*; \\d/2 shipped, \\d/2 delivered \\(\\d+(\\.\\d)?m?s, until delivered\\)`));
    expect(result.stderr.endsWith('\r\u001b[2K')).toBe(true);
  });
});

describe('orders wait under 429 answers', () => {
  it('honours Retry-After: the next poll of the order comes no sooner than the server asked', async () => {
    const sandbox = await startSandbox({ port: 0, quiet: true, lifecycleSeconds: 0.1, faults: 0.3, faultKinds: ['status_429'], seed: 7 });
    try {
      const order = await despiteFaults(() => newOrder(sandbox));
      const path = `/v1/orders/${order.id}`;
      const result = await merch(sandbox, ['orders', 'wait', String(order.id), '--until', 'shipped', '--interval', '0.05', '--retries', '6']);
      expect(result.code).toBe(0);
      const polls = sandbox.requests.filter((request) => request.path === path);
      const throttled = polls.flatMap((poll, i) => (poll.status === 429 && i + 1 < polls.length ? [[poll, polls[i + 1]!] as const] : []));
      expect(throttled.length).toBeGreaterThan(0);
      // The sandbox answers 429 with Retry-After: 1 (second); timers may fire a little early.
      for (const [answer, next] of throttled) expect(next.at - answer.at).toBeGreaterThanOrEqual(990);
    } finally {
      await sandbox.close();
    }
  });
});
