import { describe, expect, it } from 'vitest';
import { OrderFollower } from '../../../src/orders/follow/follower.js';
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
