import { describe, expect, it } from 'vitest';
import type { OrderView } from '../../../src/orders/follow/follower.js';
import type { EventFeed } from '../../../src/orders/follow/ports.js';
import { watchOrder } from '../../../src/orders/follow/watcher.js';
import type { JournalEvent } from '../../../src/webhooks/event-journal-records.js';
import { advanceShipment, CLOCK_START, FakeClock, followPortsOf, orderInProduction } from '../../support/memory-follow.js';
import { useMemoryService } from '../../support/memory-service.js';

// `orders watch` as a use case: the in-memory service behind the ports, on a fake clock
// (polls every 15 s), with webhook events fed in place of a listener's journal.

const service = useMemoryService({ retries: 0 });
let made = 0;
const newOrder = () => orderInProduction(service(), `watcher-${++made}`);

/** A watch of `orderId` until it ends, with every change, note and service change it told. */
async function watch(orderId: string, clock: FakeClock, options: { events?: EventFeed; interrupted?: AbortSignal } = {}) {
  const changes: { view: OrderView; at: Date }[] = [];
  const notes: string[] = [];
  const outcome = await watchOrder(
    {
      orderId,
      intervalMs: 15_000,
      interrupted: options.interrupted ?? new AbortController().signal,
      onChange: (view, at) => changes.push({ view, at }),
      onUnconfirmed: (note) => notes.push(note),
    },
    { ...followPortsOf(service(), clock), events: options.events },
  );
  return { outcome, changes, notes };
}

/** Each shipment's status, in one string per change: `Shipped/Created`. */
const shipmentStatuses = (changes: { view: OrderView }[]) => changes.map(({ view }) => view.shipments.map((s) => s.status).join('/'));

/** A webhook event as a listener's journal holds it. */
function event(kind: string, data: Record<string, unknown>, id: number): JournalEvent {
  return { id, received_at: new Date(CLOCK_START).toISOString(), event: kind, hook: { id: 1, event: kind, target: 'http://127.0.0.1:1/hook' }, data };
}

describe('watchOrder over the in-memory service', () => {
  it('tells each change once, at the poll that saw it, until every shipment is delivered', async () => {
    const order = await newOrder();
    const [first, second] = order.shipments as [number, number];
    const clock = new FakeClock();
    clock.at(20_000, () => advanceShipment(service(), first, 2));
    clock.at(50_000, () => advanceShipment(service(), second, 2));
    clock.at(80_000, () => advanceShipment(service(), first));
    clock.at(110_000, () => advanceShipment(service(), second));
    const { outcome, changes } = await watch(order.id, clock);

    expect(outcome).toBe('delivered');
    expect(shipmentStatuses(changes)).toEqual(['Created/Created', 'Shipped/Created', 'Shipped/Shipped', 'Delivered/Shipped', 'Delivered/Delivered']);
    // Shipped: tracking appears with the status.
    expect(changes[1]!.view.shipments[0]!.tracking_number).toEqual(expect.any(String));
    // Each change at the first poll after the move (every 15 s give or take 10 %), none twice.
    const at = changes.map((c) => c.at.getTime() - CLOCK_START);
    expect(at[0]).toBe(0);
    [20_000, 50_000, 80_000, 110_000].forEach((moved, i) => {
      expect(at[i + 1]).toBeGreaterThanOrEqual(moved);
      expect(at[i + 1]).toBeLessThanOrEqual(moved + 16_500);
    });
    expect(clock.elapsed).toBe(at[4]);
  });

  it('takes an event as a reason to ask the service: a confirmed one is shown once, a forged one is a note once and never ends the watch', async () => {
    const order = await newOrder();
    const [first] = order.shipments as [number, number];
    const clock = new FakeClock();
    const interrupt = new AbortController();
    const forged = event('order.changed', { id: Number(order.id), status: { id: 4, name: 'Delivered' } }, 1);
    const events: EventFeed = async (onEvent) => {
      await onEvent(forged);
      await onEvent(forged);
      await advanceShipment(service(), first, 2);
      const shipped = (await service().call(`/v1/orders/${order.id}`)).body.shipping_orders[0];
      await onEvent(event('shipping_order.changed', shipped, 2));
      await onEvent(event('shipping_order.changed', shipped, 3));
      interrupt.abort();
    };
    const { outcome, changes, notes } = await watch(order.id, clock, { events, interrupted: interrupt.signal });

    expect(outcome).toBe('interrupted');
    expect(shipmentStatuses(changes)).toEqual(['Created/Created', 'Shipped/Created']);
    expect(changes.every(({ view }) => view.status !== 'Delivered')).toBe(true);
    expect(notes).toEqual([`order ${order.id}: an order.changed event said Delivered, the service says In Production; going by the service`]);
  });
});
