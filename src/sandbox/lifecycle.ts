import { setDesignStatus, type CustomProduct } from './custom-product.js';
import { conflict } from './errors.js';
import type { Events } from './events.js';
import { DELIVERED, moveOrderStatus, moveShipping, PENDING, SHIPPED } from './order-moves.js';
import type { Order, ShippingOrder } from './records.js';
import type { Store } from './store.js';
import { ORDER_STATUSES, PAYMENT_PAID, status } from './statuses.js';

const APPROVED = 4;
const CANCELLED = 5;

/**
 * How resources move through their statuses, automatically (timers) or by test control.
 * Without a step (the default) a new order is only paid; with `--lifecycle SECONDS` it
 * goes one stage further every step: paid and In Production, its shipping orders
 * Scheduled, Shipped (with tracking; the order too), Delivered (the order too).
 */
export class Lifecycle {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly store: Store,
    private readonly events: Events,
    private readonly delayMs: number,
    /** `--lifecycle` in ms; undefined when orders are not moved on automatically. */
    private readonly stepMs?: number,
  ) {}

  orderCreated(account: string, order: Order): void {
    this.events.emit(account, 'order.created', order);
    this.events.emit(account, 'order.changed', order);
    for (const shipping of order.shipping_orders) this.events.emit(account, 'shipping_order.changed', shipping);
    this.moveOn(account, order.id);
  }

  customProductCreated(account: string, product: CustomProduct): void {
    this.events.emit(account, 'custom_product.created', product);
    this.later(() => this.approveDesign(account, product.id));
  }

  /** After a restart with `--data`: the pending automatic transitions start again. */
  resume(): void {
    for (const { account, record } of this.store.allOrders()) {
      const pending = this.stepMs === undefined ? record.payment_status.id !== PAYMENT_PAID.id : record.status.id < DELIVERED;
      if (pending) this.moveOn(account, record.id);
    }
    for (const { account, record } of this.store.allCustomProducts()) {
      if (record.design_status.id !== APPROVED) this.later(() => this.approveDesign(account, record.id));
    }
  }

  /** Forgets pending transitions (on reset and close). */
  clear(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /** Test control: the order will never ship (Pending or In Production only). */
  cancelOrder(account: string, order: Order): Order {
    if (order.status.id >= SHIPPED) throw conflict(`Order ${order.id} is ${order.status.name}; it can no longer be cancelled.`);
    return this.changeOrder(account, order.id, (changing) => {
      changing.status = status(ORDER_STATUSES, CANCELLED);
    });
  }

  advanceOrder(account: string, order: Order): Order {
    if (order.status.id >= DELIVERED) throw conflict(`Order ${order.id} is ${order.status.name}; it has no next status.`);
    return this.changeOrder(account, order.id, moveOrderStatus);
  }

  advanceShippingOrder(account: string, order: Order, shipping: ShippingOrder): ShippingOrder {
    if (shipping.status.id >= DELIVERED) throw conflict(`Shipping order ${shipping.id} is ${shipping.status.name}; it has no next status.`);
    this.store.updateOrder(account, order.id, (changing) => {
      moveShipping(shipping);
      touch(changing);
    });
    this.shippingMoved(account, shipping);
    return shipping;
  }

  /** The order's next automatic move: payment after the event delay, or its next lifecycle step. */
  private moveOn(account: string, orderId: number): void {
    if (this.stepMs === undefined) this.later(() => this.markPaid(account, orderId));
    else this.later(() => this.step(account, orderId), this.stepMs);
  }

  /**
   * One lifecycle stage; the shipping orders move together, the order follows them. The
   * whole stage is one move of the store (src/sandbox/order-moves.ts): an order of 500
   * shipping orders used to be 500 changes (each rewrote the whole `--data` file, issue 30.2).
   */
  private step(account: string, orderId: number): void {
    const order = this.store.order(account, orderId);
    if (!order || order.status.id >= DELIVERED) return;
    if (order.status.id === PENDING) {
      this.markPaid(account, orderId);
    } else {
      let lowest = DELIVERED;
      for (const shipping of order.shipping_orders) lowest = Math.min(lowest, shipping.status.id);
      // Each event's data is copied when it is emitted: as it was after that move.
      this.store.moveOrder(account, orderId, { move: 'stage', stage: Math.min(DELIVERED, lowest + 1), at: now() }, {
        shippingMoved: (shipping) => this.shippingMoved(account, shipping),
        orderMoved: (changing) => this.events.emit(account, 'order.changed', changing),
      });
    }
    if (order.status.id < DELIVERED) this.moveOn(account, orderId);
  }

  private shippingMoved(account: string, shipping: ShippingOrder): void {
    if (shipping.status.id === 2) this.events.emit(account, 'shipping_order.scheduled', shipping);
    this.events.emit(account, 'shipping_order.changed', shipping);
  }

  private markPaid(account: string, orderId: number): void {
    const order = this.store.order(account, orderId);
    if (!order || order.payment_status.id === PAYMENT_PAID.id) return;
    // The move is recorded as itself (a short journal line with --data), not the whole order.
    this.store.moveOrder(account, orderId, { move: 'paid', at: now() });
    this.events.emit(account, 'order.changed', order);
  }

  private approveDesign(account: string, productId: number): void {
    const product = this.store.customProduct(account, productId);
    if (!product || product.design_status.id === APPROVED) return;
    this.store.updateCustomProduct(account, productId, (changing) => setDesignStatus(changing, APPROVED));
    this.events.emit(account, 'custom_product.changed', product);
  }

  /** Changes the order, marks it modified, persists it and emits `order.changed`. */
  private changeOrder(account: string, orderId: number, change: (order: Order) => void): Order {
    const order = this.store.updateOrder(account, orderId, (changing) => {
      change(changing);
      touch(changing);
    });
    if (!order) throw new Error(`unknown order ${orderId} of ${account}`);
    this.events.emit(account, 'order.changed', order);
    return order;
  }

  private later(action: () => void, delayMs = this.delayMs): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      action();
    }, delayMs);
    this.timers.add(timer);
  }
}

function now(): string {
  return new Date().toISOString();
}

/** Marks a change made by a test control, whose record is written whole. */
function touch(order: Order): void {
  order.modified_on = now();
}
