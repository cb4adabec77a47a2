import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { merch } from '../../support/run-merch.js';
import { createOrder, sandboxApi, useSandbox } from '../../support/sandbox.js';
import type { TrackRecord } from './helpers.js';

// A model-based test of `orders track`: a send of two orders (four shipments) moves on step
// by step by the sandbox's test controls (a shipment advanced, an order cancelled) in any
// order; after each step `orders track` must print what the service holds, count it by
// status, and `--until` must give the verdict the model gives (0 there, 5 cancelled, 6 not
// yet).

const sandbox = useSandbox({ eventDelayMs: 10 });

const STATUSES = ['Created', 'Scheduled', 'Shipped', 'Delivered'] as const;

interface Model {
  /** Each shipment's position in STATUSES, by shipment id. */
  status: Map<number, number>;
  cancelled: Set<number>;
}

interface Real {
  orders: number[];
  shipments: number[];
}

const summaryOf = (model: Model) => {
  const counts = STATUSES.map((name, i) => [name, [...model.status.values()].filter((s) => s === i).length] as const).filter(([, n]) => n > 0);
  return `${model.status.size} shipments: ${counts.map(([name, n]) => `${n} ${name}`).join(', ')}`;
};

class AdvanceShipment implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>) => [...model.status.values()].some((s) => s < STATUSES.length - 1);
  async run(model: Model, real: Real) {
    const open = real.shipments.filter((id) => model.status.get(id)! < STATUSES.length - 1);
    const id = open[this.pick % open.length]!;
    expect((await sandboxApi(sandbox(), `/_sandbox/shipping-orders/${id}/advance`, { method: 'POST' })).status).toBe(200);
    model.status.set(id, model.status.get(id)! + 1);
  }
  toString = () => `advance(${this.pick})`;
}

class CancelOrder implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>) => model.cancelled.size < 2;
  async run(model: Model, real: Real) {
    const open = real.orders.filter((id) => !model.cancelled.has(id));
    const id = open[this.pick % open.length]!;
    expect((await sandboxApi(sandbox(), `/_sandbox/orders/${id}/cancel`, { method: 'POST' })).status).toBe(200);
    model.cancelled.add(id);
  }
  toString = () => `cancel(${this.pick})`;
}

class Track implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real) {
    const result = await merch(sandbox(), ['orders', 'track', ...real.orders.map(String), '--json']);
    expect(result.code).toBe(0);
    const records = JSON.parse(result.stdout) as TrackRecord[];
    expect(records.map((r) => [r.shipping_order_id, r.status])).toEqual(real.shipments.map((id) => [id, STATUSES[model.status.get(id)!]]));
    for (const record of records) expect(record.tracking_number !== null).toBe(model.status.get(record.shipping_order_id)! >= 2);
    expect(result.stderr).toBe(`${summaryOf(model)}\n`);
  }
  toString = () => 'track';
}

class TrackUntil implements fc.AsyncCommand<Model, Real> {
  constructor(readonly until: 'shipped' | 'delivered') {}
  check = () => true;
  async run(model: Model, real: Real) {
    const target = this.until === 'shipped' ? 2 : 3;
    const behind = real.shipments.filter((id) => model.status.get(id)! < target);
    const expected = model.cancelled.size > 0 ? 5 : behind.length === 0 ? 0 : 6;
    // The verdict comes with the first read when it is 0 or 5: a long --max-wait costs
    // nothing there, and a loaded machine may take a while to read the orders. A 6 waits the
    // whole --max-wait: long enough for that first read, short enough for the suite.
    const maxWait = expected === 6 ? '1s' : '1m';
    const result = await merch(sandbox(), ['orders', 'track', ...real.orders.map(String), '--until', this.until, '--max-wait', maxWait, '--interval', '0.05', '--jsonl']);
    expect(result.code, result.stderr).toBe(expected);
    expect(result.stdout.trim().split('\n')).toHaveLength(real.shipments.length);
    if (expected === 6) expect(result.stderr).toContain(`error: ${behind.length} of ${real.shipments.length} shipments not ${this.until} after 1s: `);
    if (expected === 5) expect(result.stderr).toMatch(/error: (a shipment|\d shipments) can never be/);
  }
  toString = () => `track --until ${this.until}`;
}

let sends = 0;

describe('orders track, model-based', () => {
  it('prints what the service holds and gives the model\'s verdict after any sequence of steps', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.commands(
          [
            fc.nat().map((n) => new AdvanceShipment(n)),
            fc.nat().map((n) => new CancelOrder(n)),
            fc.constant(new Track()),
            fc.constantFrom('shipped', 'delivered').map((until) => new TrackUntil(until)),
          ],
          { maxCommands: 8 },
        ),
        async (commands) => {
          const orders = [await createOrder(sandbox(), `track-model-${process.pid}-${++sends}-a`), await createOrder(sandbox(), `track-model-${process.pid}-${sends}-b`)];
          const real: Real = { orders: orders.map((o) => o.id), shipments: orders.flatMap((o) => o.shipping_orders.map((s: { id: number }) => s.id)) };
          const model: Model = { status: new Map(real.shipments.map((id) => [id, 0])), cancelled: new Set() };
          await fc.asyncModelRun(() => ({ model, real }), [...commands, new Track()]);
        },
      ),
      { numRuns: 8 },
    );
  });
});
