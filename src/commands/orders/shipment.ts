import type { Order } from '../../api/schemas.js';

/** How a shipping order is named and described wherever orders are printed. */

export type ShippingOrder = NonNullable<Order['shipping_orders']>[number];

/** The recipient's own field, from the shipping order or its `recipient` object. */
export function recipientField(s: ShippingOrder, field: 'first_name' | 'last_name' | 'email'): unknown {
  return s[field] ?? (s.recipient as Record<string, unknown> | null | undefined)?.[field];
}

export function recipientName(s: ShippingOrder): string {
  return [recipientField(s, 'first_name'), recipientField(s, 'last_name')].filter((part) => part !== null && part !== undefined && part !== '').join(' ');
}

/** What a shipment holds: `item 1 x 2, item 2 x 1` (order line item ids and quantities). */
export function shipmentItems(s: ShippingOrder): string {
  return (s.line_items ?? []).map((item) => `item ${item.id} x ${item.quantity ?? '?'}`).join(', ');
}
