import type { EventKind } from '../contract/delivery.js';
import { badRequest } from './errors.js';
import type { Order, ShippingOrder } from './records.js';
import { ORDER_STATUSES, PAYMENT_PENDING, SHIPPING_STATUSES, status } from './statuses.js';

/**
 * The record as it was when it was created, for the test control that delivers an event
 * late on purpose (`"stale": true`): first status, payment pending, no tracking, and an
 * order's `modified_on` back at its `created_at`. Real services deliver such late events
 * (deliveries are retried and go out in parallel); a follower must not move back on them.
 */
export function staleSnapshot(event: EventKind, resource: object): object {
  if (event.startsWith('order.')) return staleOrder(resource as Order);
  if (event.startsWith('shipping_order.')) return staleShipping(resource as ShippingOrder);
  throw badRequest('Only order and shipping order events can be delivered stale.');
}

function staleOrder(order: Order): Order {
  return {
    ...order,
    status: status(ORDER_STATUSES, 1),
    payment_status: { ...PAYMENT_PENDING },
    modified_on: order.created_at,
    shipping_orders: order.shipping_orders.map(staleShipping),
  };
}

function staleShipping(shipping: ShippingOrder): ShippingOrder {
  return {
    ...shipping,
    status: status(SHIPPING_STATUSES, 1),
    payment_status: { ...PAYMENT_PENDING },
    tracking_number: null,
    tracking_url: null,
  };
}
