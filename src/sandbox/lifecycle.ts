import { setDesignStatus, type CustomProduct } from './custom-product.js';
import { conflict } from './errors.js';
import type { Events } from './events.js';
import type { Order, ShippingOrder } from './records.js';
import type { Store } from './state.js';
import {
  LINE_ITEM_STATUSES,
  ORDER_STATUSES,
  PAYMENT_PAID,
  SHIPPING_STATUSES,
  status,
} from './statuses.js';

const APPROVED = 4;
const TRACKING_ORIGIN = 'https://tracking.merch-sandbox.invalid';

/** How resources move through their statuses, automatically (timers) or by test control. */
export class Lifecycle {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly store: Store,
    private readonly events: Events,
    private readonly delayMs: number,
  ) {}

  orderCreated(account: string, order: Order): void {
    this.events.emit(account, 'order.created', order);
    this.events.emit(account, 'order.changed', order);
    for (const shipping of order.shipping_orders) this.events.emit(account, 'shipping_order.changed', shipping);
    this.later(() => this.markPaid(account, order.id));
  }

  customProductCreated(account: string, product: CustomProduct): void {
    this.events.emit(account, 'custom_product.created', product);
    this.later(() => this.approveDesign(account, product.id));
  }

  /** After a restart with `--data`: the pending automatic transitions start again. */
  resume(): void {
    for (const { account, record } of this.store.allOrders()) {
      if (record.payment_status.id !== PAYMENT_PAID.id) this.later(() => this.markPaid(account, record.id));
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

  advanceOrder(account: string, order: Order): Order {
    const next = order.status.id + 1;
    if (order.status.id >= 4) throw conflict(`Order ${order.id} is ${order.status.name}; it has no next status.`);
    return this.changeOrder(account, order.id, (changing) => {
      if (next === 2) this.pay(changing);
      changing.status = status(ORDER_STATUSES, next);
      if (next === 3) {
        for (const item of changing.line_items) item.status = status(LINE_ITEM_STATUSES, 2);
      }
    });
  }

  advanceShippingOrder(account: string, order: Order, shipping: ShippingOrder): ShippingOrder {
    const next = shipping.status.id + 1;
    if (next > 4) throw conflict(`Shipping order ${shipping.id} is ${shipping.status.name}; it has no next status.`);
    this.store.updateOrder(account, order.id, (changing) => {
      shipping.status = status(SHIPPING_STATUSES, next);
      if (next === 3) {
        shipping.tracking_number = `1ZSBX${String(shipping.id).padStart(10, '0')}`;
        shipping.tracking_url = `${TRACKING_ORIGIN}/track/${shipping.tracking_number}`;
      }
      touch(changing);
    });
    if (next === 2) this.events.emit(account, 'shipping_order.scheduled', shipping);
    this.events.emit(account, 'shipping_order.changed', shipping);
    return shipping;
  }

  private markPaid(account: string, orderId: number): void {
    const order = this.store.order(account, orderId);
    if (!order || order.payment_status.id === PAYMENT_PAID.id) return;
    this.changeOrder(account, orderId, (changing) => {
      this.pay(changing);
      if (changing.status.id === 1) changing.status = status(ORDER_STATUSES, 2);
    });
  }

  private approveDesign(account: string, productId: number): void {
    const product = this.store.customProduct(account, productId);
    if (!product || product.design_status.id === APPROVED) return;
    this.store.updateCustomProduct(account, productId, (changing) => setDesignStatus(changing, APPROVED));
    this.events.emit(account, 'custom_product.changed', product);
  }

  private pay(order: Order): void {
    order.payment_status = { ...PAYMENT_PAID };
    for (const shipping of order.shipping_orders) shipping.payment_status = { ...PAYMENT_PAID };
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

  private later(action: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      action();
    }, this.delayMs);
    this.timers.add(timer);
  }
}

function touch(order: Order): void {
  order.modified_on = new Date().toISOString();
}
