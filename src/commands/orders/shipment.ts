import type { ShippingOrder } from '../../orders/shipment-recipient.js';

/** How a shipping order is named and described wherever orders are printed. */

// The recipient is the order domain's (orders track reads it too).
export { recipientField, recipientName, type ShippingOrder } from '../../orders/shipment-recipient.js';

/** What a shipment holds: `item 1 x 2, item 2 x 1` (order line item ids and quantities). */
export function shipmentItems(s: ShippingOrder): string {
  return (s.line_items ?? []).map((item) => `item ${item.id} x ${item.quantity ?? '?'}`).join(', ');
}
