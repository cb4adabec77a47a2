import type { Order, ShippingOrder } from './records.js';
import { LINE_ITEM_STATUSES, ORDER_STATUSES, PAYMENT_PAID, SHIPPING_STATUSES, status } from './statuses.js';

/**
 * The lifecycle's automatic moves of an order (src/sandbox/lifecycle.ts) as data, and the one
 * function that applies them: live, and when the `--data` journal is replayed, which keeps a
 * move as a line of its own (`{"order": 1001, "move": "paid", "at": "..."}`, where the whole
 * order of 1,000 shipping orders is ~1.7 MB). A move sets what it changes to values of its
 * own: statuses only go forward to the move's target, the time is the move's. So a move
 * applied again to a record that already has it, and the moves after it, leaves the record as
 * it was: the journal relies on that (src/sandbox/persistence.ts).
 */
export type OrderMove =
  /** Paid: the order and its shipping orders; a Pending order goes In Production. */
  | { move: 'paid'; at: string }
  /** A lifecycle stage: the shipping orders brought up to `stage`, and the order with them from Shipped on. */
  | { move: 'stage'; stage: number; at: string };

/** Told of each status a stage moves, as the record is right after it (the lifecycle's events). */
export interface MoveObserver {
  shippingMoved(shipping: ShippingOrder): void;
  orderMoved(order: Order): void;
}

/** Order and shipping order status ids (src/sandbox/statuses.ts); Shipped and Delivered are the same in both lists. */
export const PENDING = 1;
export const IN_PRODUCTION = 2;
export const SHIPPED = 3;
export const DELIVERED = 4;
const TRACKING_ORIGIN = 'https://tracking.merch-sandbox.invalid';

export function isOrderMove(value: Record<string, unknown>): boolean {
  if (typeof value.at !== 'string') return false;
  if (value.move === 'paid') return true;
  return value.move === 'stage' && Number.isInteger(value.stage) && (value.stage as number) >= IN_PRODUCTION && (value.stage as number) <= DELIVERED;
}

export function applyOrderMove(order: Order, move: OrderMove, observer?: MoveObserver): void {
  order.modified_on = move.at;
  if (move.move === 'paid') {
    pay(order);
    if (order.status.id === PENDING) order.status = status(ORDER_STATUSES, IN_PRODUCTION);
    return;
  }
  for (const shipping of order.shipping_orders) {
    while (shipping.status.id < move.stage) {
      moveShipping(shipping);
      observer?.shippingMoved(shipping);
    }
  }
  while (move.stage >= SHIPPED && order.status.id < move.stage) {
    moveOrderStatus(order);
    observer?.orderMoved(order);
  }
}

/** The order's next status (paid first when it was pending; its line items fulfilled once it ships). */
export function moveOrderStatus(order: Order): void {
  const next = order.status.id + 1;
  if (next === IN_PRODUCTION) pay(order);
  order.status = status(ORDER_STATUSES, next);
  if (next === SHIPPED) {
    for (const item of order.line_items) item.status = status(LINE_ITEM_STATUSES, 2);
  }
}

/** The shipping order's next status, with its tracking once it ships. */
export function moveShipping(shipping: ShippingOrder): void {
  const next = shipping.status.id + 1;
  shipping.status = status(SHIPPING_STATUSES, next);
  if (next === SHIPPED) {
    shipping.tracking_number = `1ZSBX${String(shipping.id).padStart(10, '0')}`;
    shipping.tracking_url = `${TRACKING_ORIGIN}/track/${shipping.tracking_number}`;
  }
}

function pay(order: Order): void {
  order.payment_status = { ...PAYMENT_PAID };
  for (const shipping of order.shipping_orders) shipping.payment_status = { ...PAYMENT_PAID };
}
