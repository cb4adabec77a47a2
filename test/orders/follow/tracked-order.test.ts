import { describe, expect, it } from 'vitest';
import { OrderFollower, unconfirmedNote } from '../../../src/orders/follow/follower.js';
import { mergeOrder, orderObservation } from '../../../src/orders/follow/tracked-order.js';
import { hasReached, standing } from '../../../src/orders/follow/wait-states.js';

const shipment = (id: number, status: string, tracking: string | null = null) => ({
  id,
  order: 1001,
  status: { id: 0, name: status },
  tracking_number: tracking,
  tracking_url: tracking && `https://track.example/${tracking}`,
});
const order = (status: string, modified: string, shipments: ReturnType<typeof shipment>[]) => ({
  id: 1001,
  status: { id: 0, name: status },
  modified_on: modified,
  shipping_orders: shipments,
});

describe('a followed order never moves backwards', () => {
  it('ignores an order record older than the one known (newest modified_on wins)', () => {
    const follower = new OrderFollower('1001');
    expect(follower.observeOrder(order('Shipped', '2026-01-01T10:00:02.000Z', [shipment(1, 'Shipped', 'T1')]))).toBe(true);
    expect(follower.observeOrder(order('In Production', '2026-01-01T10:00:01.000Z', [shipment(1, 'Scheduled')]))).toBe(false);
    expect(follower.view()).toEqual({
      order: 1001,
      status: 'Shipped',
      shipments: [{ id: 1, status: 'Shipped', tracking_number: 'T1', tracking_url: 'https://track.example/T1' }],
    });
  });

  it('ignores a late shipment event with an earlier status, and keeps a tracking number once seen', () => {
    const follower = new OrderFollower('1001');
    follower.observeOrder(order('Shipped', '2026-01-01T10:00:02.000Z', [shipment(1, 'Shipped', 'T1'), shipment(2, 'Scheduled')]));
    expect(follower.observeEvent('shipping_order.changed', shipment(1, 'Created'))).toBe(false);
    expect(follower.observeEvent('shipping_order.changed', shipment(2, 'Shipped', 'T2'))).toBe(true);
    // Delivered without tracking in the event: the tracking number stays.
    expect(follower.observeEvent('shipping_order.changed', shipment(2, 'Delivered'))).toBe(true);
    expect(follower.view().shipments[1]).toEqual({ id: 2, status: 'Delivered', tracking_number: 'T2', tracking_url: 'https://track.example/T2' });
  });

  it('takes events of its own order only; an unknown status name is taken as it comes', () => {
    const follower = new OrderFollower('1001');
    expect(follower.observeEvent('order.changed', { ...order('Shipped', '2026-01-01T10:00:00.000Z', []), id: 7 })).toBe(false);
    expect(follower.observeEvent('shipping_order.changed', { ...shipment(9, 'Shipped'), order: 7 })).toBe(false);
    const merged = mergeOrder(orderObservation(order('On Hold', '2026-01-01T10:00:00.000Z', [])), orderObservation(order('Pending', '2026-01-01T10:00:01.000Z', [])));
    expect(merged.status).toBe('Pending');
  });

  it('a cancelled order is past every status', () => {
    const follower = new OrderFollower('1001');
    follower.observeOrder(order('Cancelled', '2026-01-01T10:00:02.000Z', []));
    expect(follower.observeOrder(order('In Production', '2026-01-01T10:00:02.000Z', []))).toBe(false);
  });
});

describe('what an event claims (taken only once the service says it too)', () => {
  it('claimedBy: what would be shown, without taking it; nothing for a stale, repeated or foreign event', () => {
    const follower = new OrderFollower('1001');
    follower.observeOrder(order('In Production', '2026-01-01T10:00:02.000Z', [shipment(1, 'Shipped', 'T1'), shipment(2, 'Scheduled')]));
    const before = follower.view();
    expect(follower.claimedBy('shipping_order.changed', shipment(2, 'Delivered'))?.shipments[1]?.status).toBe('Delivered');
    expect(follower.view()).toEqual(before);
    expect(follower.claimedBy('shipping_order.changed', shipment(1, 'Created'))).toBeUndefined();
    expect(follower.claimedBy('shipping_order.changed', shipment(2, 'Scheduled'))).toBeUndefined();
    expect(follower.claimedBy('order.changed', { ...order('Delivered', '2026-01-01T10:00:03.000Z', []), id: 7 })).toBeUndefined();
  });

  it('unconfirmedNote: what the event said against what the service says, values cut', () => {
    const follower = new OrderFollower('1001');
    follower.observeOrder(order('In Production', '2026-01-01T10:00:02.000Z', [shipment(1, 'Shipped', 'T1'), shipment(2, 'Scheduled')]));
    const service = follower.view();
    const claim = (kind: string, data: Record<string, unknown>) => unconfirmedNote(kind, follower.claimedBy(kind, data)!, service);
    expect(claim('shipping_order.changed', shipment(2, 'Delivered'))).toBe(
      'order 1001: a shipping_order.changed event said shipment 2 Delivered, the service says shipment 2 Scheduled; going by the service',
    );
    expect(claim('shipping_order.changed', shipment(3, 'Delivered'))).toBe(
      'order 1001: a shipping_order.changed event said shipment 3 Delivered, the service says no shipment 3; going by the service',
    );
    expect(claim('shipping_order.changed', shipment(1, 'Shipped', 'FORGED'))).toBe(
      'order 1001: a shipping_order.changed event said shipment 1 Shipped (tracking FORGED), the service says shipment 1 Shipped (tracking T1); going by the service',
    );
    expect(claim('order.changed', order('x'.repeat(100), '2026-01-01T10:00:03.000Z', []))).toBe(
      `order 1001: an order.changed event said ${'x'.repeat(39)}…, the service says In Production; going by the service`,
    );
  });
});

describe('wait states', () => {
  const tracked = (status: string, shipments: string[]) =>
    orderObservation(order(status, '2026-01-01T10:00:00.000Z', shipments.map((name, i) => shipment(i + 1, name))));

  it('in-production is the order; shipped and delivered are every shipping order', () => {
    expect(hasReached(tracked('Pending', ['Created']), 'in-production')).toBe(false);
    expect(hasReached(tracked('in production', ['Created']), 'in-production')).toBe(true);
    expect(hasReached(tracked('Shipped', ['Shipped']), 'in-production')).toBe(true);
    expect(hasReached(tracked('In Production', ['Shipped', 'Scheduled']), 'shipped')).toBe(false);
    expect(hasReached(tracked('In Production', ['Shipped', 'Delivered']), 'shipped')).toBe(true);
    expect(hasReached(tracked('Shipped', ['Shipped', 'Delivered']), 'delivered')).toBe(false);
    expect(hasReached(tracked('Cancelled', []), 'in-production')).toBe(false);
    expect(standing(tracked('In Production', ['Shipped', 'Scheduled']))).toBe('In Production; 1 of 2 shipments shipped, 0 delivered');
  });
});
