import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors.js';
import { systemClock } from '../../../src/commands/orders/follow-ports.js';
import type { ServiceChange } from '../../../src/orders/follow/service-health.js';
import { waitForOrder } from '../../../src/orders/follow/waiter.js';
import { standing, type WaitState } from '../../../src/orders/follow/wait-states.js';
import { advanceShipment, cancelOrder, FakeClock, followPortsOf, orderInProduction } from '../../support/memory-follow.js';
import { useMemoryService } from '../../support/memory-service.js';

// The waiter's verdict on a service that never answers: it failed for the whole wait, by
// the system's clock (its deadline's timer counts from the event loop's cached time).

const serverError = () => new ApiError('GET /v1/orders/5 failed: 500 Server Error', 'server', 500, '', undefined, false, { type: 'status', status: 500, title: 'Server Error', message: '' });

describe('waitForOrder against a service that never answers', () => {
  it('times out having failed for all of the max wait, never a little less', async () => {
    for (let round = 0; round < 20; round++) {
      const result = await waitForOrder(
        { orderId: '5', until: 'shipped', maxWaitMs: 30, intervalMs: 5, interrupted: new AbortController().signal },
        { orders: { get: () => Promise.reject(serverError()) }, clock: systemClock },
      );
      expect(result.outcome).toBe('timed-out');
      expect(result.answered).toBe(false);
      expect(result.failing?.forMs, `round ${round}`).toBeGreaterThanOrEqual(30);
      expect(result.failing?.last.status).toBe(500);
    }
  });
});

// `orders wait` as a use case: the in-memory service behind the ports, on a fake clock, so a
// wait of minutes runs in milliseconds and the service moves at the moments a test names.

const service = useMemoryService({ retries: 0 });
let made = 0;
const newOrder = () => orderInProduction(service(), `waiter-${++made}`);

/** A wait for `orderId` until `until`, polling every 15 s for at most 30 minutes, with what it told as it went. */
async function wait(orderId: string, clock: FakeClock, options: { until?: WaitState; maxWaitMs?: number; interrupted?: AbortSignal } = {}) {
  const progress: string[] = [];
  const changes: ServiceChange[] = [];
  const result = await waitForOrder(
    {
      orderId,
      until: options.until ?? 'shipped',
      maxWaitMs: options.maxWaitMs ?? 30 * 60_000,
      intervalMs: 15_000,
      interrupted: options.interrupted ?? new AbortController().signal,
      onProgress: (order) => progress.push(standing(order, 'short')),
      onServiceChange: (change) => changes.push(change),
    },
    followPortsOf(service(), clock),
  );
  return { result, progress, changes };
}

/** The GETs of one order the service answered. */
const reads = (orderId: string) => service().requests.filter((r) => r.method === 'GET' && r.path === `/v1/orders/${orderId}`).length;

describe('waitForOrder over the in-memory service', () => {
  it('reaches the state at the first poll after the service gets there, telling each change once', async () => {
    const order = await newOrder();
    const clock = new FakeClock();
    clock.at(20_000, () => advanceShipment(service(), order.shipments[0]!, 2));
    clock.at(50_000, () => advanceShipment(service(), order.shipments[1]!, 2));
    const { result, progress, changes } = await wait(order.id, clock);

    expect(result.outcome).toBe('reached');
    expect(result.record?.shipping_orders?.map((s) => s.status)).toEqual([expect.objectContaining({ name: 'Shipped' }), expect.objectContaining({ name: 'Shipped' })]);
    // Polled every 15 s give or take 10 %: the first poll after 50 s is the last.
    expect(clock.elapsed).toBeGreaterThanOrEqual(50_000);
    expect(clock.elapsed).toBeLessThanOrEqual(50_000 + 16_500);
    expect(progress.map((line) => line.replace(/^[^;]*; /, ''))).toEqual(['0/2 shipped, 0/2 delivered', '1/2 shipped, 0/2 delivered', '2/2 shipped, 0/2 delivered']);
    expect(changes).toEqual([]);
  });

  it('times out at --max-wait, having polled all along, when the order never gets there', async () => {
    const order = await newOrder();
    const clock = new FakeClock();
    const before = reads(order.id);
    const { result } = await wait(order.id, clock, { maxWaitMs: 5 * 60_000 });

    expect(result.outcome).toBe('timed-out');
    expect(result.answered).toBe(true);
    expect(result.failing).toBeUndefined();
    expect(result.order && standing(result.order)).toMatch(/; 0 of 2 shipments shipped, 0 delivered$/);
    expect(clock.elapsed).toBe(5 * 60_000);
    // 300 s at 15 s give or take 10 %: about 20 polls, the first at once.
    expect(reads(order.id) - before).toBeGreaterThanOrEqual(18);
    expect(reads(order.id) - before).toBeLessThanOrEqual(23);
  });

  it('ends as cancelled when the order is cancelled while it waits', async () => {
    const order = await newOrder();
    const clock = new FakeClock();
    clock.at(40_000, () => cancelOrder(service(), order.id));
    const { result } = await wait(order.id, clock, { until: 'delivered' });

    expect(result.outcome).toBe('cancelled');
    expect(result.order?.status).toBe('Cancelled');
    expect(clock.elapsed).toBeGreaterThanOrEqual(40_000);
    expect(clock.elapsed).toBeLessThanOrEqual(40_000 + 16_500);
  });

  it('ends as interrupted at Ctrl-C', async () => {
    const order = await newOrder();
    const clock = new FakeClock();
    const interrupt = new AbortController();
    clock.at(100_000, () => interrupt.abort());
    const { result } = await wait(order.id, clock, { interrupted: interrupt.signal });

    expect(result.outcome).toBe('interrupted');
    expect(clock.elapsed).toBe(100_000);
  });

  it('throws the 404 of an order the service does not know at once, without waiting', async () => {
    const clock = new FakeClock();
    const failure = await wait('999999', clock).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).kind).toBe('not_found');
    expect(clock.elapsed).toBe(0);
  });

  it('polls through the service failing (503), saying once that it fails and once that it answers again', async () => {
    const order = await newOrder();
    const clock = new FakeClock();
    let failing = false;
    service().gateway = { answer: (_method, url) => (failing && url.pathname === `/v1/orders/${order.id}` ? { status: 503, body: { detail: 'Service Unavailable' } } : undefined) };
    clock.at(10_000, () => (failing = true));
    clock.at(70_000, () => (failing = false));
    clock.at(80_000, () => Promise.all(order.shipments.map((id) => advanceShipment(service(), id, 2))));
    try {
      const { result, changes } = await wait(order.id, clock);

      expect(result.outcome).toBe('reached');
      expect(result.failing).toBeUndefined();
      expect(changes.map((change) => change.kind)).toEqual(['failing', 'answering']);
      const [failed, answering] = changes as [Extract<ServiceChange, { kind: 'failing' }>, Extract<ServiceChange, { kind: 'answering' }>];
      expect(failed.error.status).toBe(503);
      // From the first failed poll (after 10 s) to the first answered one (after 70 s), backing off on the way.
      expect(answering.failedForMs).toBeGreaterThanOrEqual(70_000 - 26_500);
      expect(answering.failedForMs).toBeLessThanOrEqual(70_000 + 8 * 15_000);
    } finally {
      service().gateway = undefined;
    }
  });
});
