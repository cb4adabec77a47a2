import { atLeast, isCancelled, ORDER_PROGRESSION, SHIPMENT_PROGRESSION } from './status-progression.js';
import type { TrackedOrder } from './tracked-order.js';

/** The states `orders wait --until` knows. shipped and delivered mean every shipping order. */
export const WAIT_STATES = ['in-production', 'shipped', 'delivered'] as const;
export type WaitState = (typeof WAIT_STATES)[number];

export function isWaitState(value: string): value is WaitState {
  return (WAIT_STATES as readonly string[]).includes(value);
}

/** Whether the order is there. An order with no shipping orders listed goes by its own status. */
export function hasReached(order: TrackedOrder, state: WaitState): boolean {
  if (state === 'in-production') return atLeast(ORDER_PROGRESSION, order.status, 'in production');
  const name = state === 'shipped' ? 'shipped' : 'delivered';
  if (order.shipments.length === 0) return atLeast(ORDER_PROGRESSION, order.status, name);
  return order.shipments.every((shipment) => atLeast(SHIPMENT_PROGRESSION, shipment.status, name));
}

/** A cancelled order never gets anywhere. */
export function cannotReach(order: TrackedOrder): boolean {
  return isCancelled(order.status);
}

/** Every shipment delivered: where `orders watch` ends. */
export function isDelivered(order: TrackedOrder): boolean {
  return hasReached(order, 'delivered');
}

/**
 * Where the order stands, in one line: `In Production; 1 of 3 shipments shipped, 0
 * delivered`, or `short` for a live line on a terminal: `In Production; 1/3 shipped, 0/3
 * delivered`.
 */
export function standing(order: TrackedOrder, form: 'long' | 'short' = 'long'): string {
  const total = order.shipments.length;
  const count = (name: string) => order.shipments.filter((s) => atLeast(SHIPMENT_PROGRESSION, s.status, name)).length;
  const shipments =
    total === 0 ? 'no shipments listed'
    : form === 'short' ? `${count('shipped')}/${total} shipped, ${count('delivered')}/${total} delivered`
    : `${count('shipped')} of ${total} shipments shipped, ${count('delivered')} delivered`;
  return `${order.status ?? 'status unknown'}; ${shipments}`;
}
