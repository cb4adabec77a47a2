import { money } from './money.js';
import type { OrderAddress, OrderRequest } from '../contract/order-request.js';
import type { ResolvedOrder } from './order-resolution.js';
import type { Address, Order, OrderLineItem, PaymentMethod, ShippingOrder } from './records.js';
import type { AccountState } from './state.js';
import type { Store } from './store.js';
import { LINE_ITEM_STATUSES, ORDER_STATUSES, ORDER_TYPES, PAYMENT_PENDING, SHIPPING_STATUSES, status } from './statuses.js';

export const SHIPPING_PER_SHIPMENT = 799;
export const TAX_RATE = 0.08;
const DAY = 86_400_000;

/** Which address fields are required is not shown: the sandbox takes what it is given (an empty string for a missing one). */
export function toAddress(input: OrderAddress): Address {
  return {
    line_1: input.line_1 ?? '',
    line_2: input.line_2 ?? null,
    city: input.city ?? '',
    state: input.state ?? '',
    postal_code: input.postal_code ?? '',
    country: input.country ?? '',
    is_po_box: /\bp\.?\s*o\.?\s*box\b/i.test(input.line_1 ?? ''),
    is_valid: true,
    is_business_address: Boolean(input.company),
  };
}

function paymentInformation(method: PaymentMethod): Order['payment_information'] {
  const last4 = method.card?.last4 ?? method.us_bank_account?.last4 ?? '';
  return { payment_method_id: method.id, type: method.type, last4 };
}

/** The order record (spec 2.4/2.5 shapes) of a validated request, with its totals: what the sandbox stores and answers. */
export function buildOrderRecord(store: Store, account: AccountState, request: OrderRequest, resolved: ResolvedOrder): Order {
  const now = new Date();
  const orderId = store.nextId('order');
  const byRequestId = new Map<number, OrderLineItem>();
  for (const line of resolved.lines) {
    const price = line.product.prices.price.amount;
    byRequestId.set(line.requestId, {
      id: store.nextId('line_item'),
      part: line.part,
      quantity: line.quantity,
      price: money(price),
      subtotal: money(price * line.quantity),
      status: status(LINE_ITEM_STATUSES, 1),
      pack_items: [],
    });
  }
  const lineItems = [...byRequestId.values()];
  const productionDays = Math.max(...lineItems.map((item) => item.part.product_production_time));
  const shippingDate = new Date(now.getTime() + productionDays * DAY).toISOString().slice(0, 10);
  const shippingOrders = request.shipping_orders.map((shipping): ShippingOrder => {
    const recipient = shipping.recipient;
    const address = toAddress(recipient);
    const contact = {
      first_name: recipient.first_name ?? '',
      last_name: recipient.last_name ?? '',
      email: recipient.email ?? '',
      phone: recipient.phone ?? '',
      company: recipient.company ?? null,
    };
    return {
      id: store.nextId('shipping_order'),
      status: status(SHIPPING_STATUSES, 1),
      payment_status: { ...PAYMENT_PENDING },
      ...contact,
      address,
      shipping_date: shippingDate,
      order: orderId,
      shipping: money(SHIPPING_PER_SHIPMENT),
      rate_id: null,
      shipment_id: null,
      shipping_method: { id: 'standard', name: 'Standard' },
      recipient: {
        id: store.nextId('recipient'),
        ...contact,
        shipping_address: address,
        tags: [],
        external_id: null,
        source: { id: 1, name: 'API' },
        source_id: null,
      },
      payment_information: null,
      invoice: orderId,
      tracking_number: null,
      tracking_url: null,
      line_items: shipping.line_items.map((item) => {
        const line = byRequestId.get(item.id)!;
        return { id: line.id, part: line.part, quantity: item.quantity };
      }),
    };
  });
  const subtotal = lineItems.reduce((sum, item) => sum + item.subtotal.amount, 0);
  const shipping = SHIPPING_PER_SHIPMENT * shippingOrders.length;
  const tax = Math.round(subtotal * TAX_RATE);
  return {
    id: orderId,
    external_id: request.external_id ?? null,
    status: status(ORDER_STATUSES, 1),
    payment_status: { ...PAYMENT_PENDING },
    created_at: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    created_by: account.id,
    modified_on: now.toISOString(),
    modified_by: null,
    subtotal: money(subtotal),
    shipping: money(shipping),
    storage: money(0),
    tax: money(tax),
    total: money(subtotal + shipping + tax),
    line_items: lineItems,
    payment_information: paymentInformation(resolved.paymentMethod),
    type: status(ORDER_TYPES, 2),
    on_demand: false,
    billing_address: request.billing_address ? toAddress(request.billing_address) : { ...account.billing_address },
    shipping_orders: shippingOrders,
  };
}
