import type { Order } from '../api/schemas.js';

/** Who a shipping order goes to, wherever shipments are shown or tracked. */

export type ShippingOrder = NonNullable<Order['shipping_orders']>[number];

/** The recipient's own field, from the shipping order or its `recipient` object (spec 2.5 has both). */
export function recipientField(s: ShippingOrder, field: 'first_name' | 'last_name' | 'email'): unknown {
  return s[field] ?? (s.recipient as Record<string, unknown> | null | undefined)?.[field];
}

export function recipientName(s: ShippingOrder): string {
  return [recipientField(s, 'first_name'), recipientField(s, 'last_name')].filter((part) => part !== null && part !== undefined && part !== '').join(' ');
}
