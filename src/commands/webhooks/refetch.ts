import type { ApiClient } from '../../api/client.js';
import { getCustomProduct } from '../../api/resources/custom-products.js';
import { getOrder } from '../../api/resources/orders.js';
import type { JournalEvent } from '../../webhooks/journal.js';

/**
 * `webhooks listen --refetch`: deliveries are unsigned, so the resource an event names is
 * read again through the authenticated API, and that copy is what gets printed. A
 * shipping order has no endpoint of its own; it is found in its parent order.
 */
export async function refetch(api: ApiClient, event: JournalEvent): Promise<Record<string, unknown>> {
  const id = idOf(event.data['id'], 'the delivery names no resource id');
  const kind = event.event;
  if (kind.startsWith('order.')) return (await getOrder(api, id)) as Record<string, unknown>;
  if (kind.startsWith('custom_product.')) return (await getCustomProduct(api, id)) as Record<string, unknown>;
  if (kind.startsWith('shipping_order.')) {
    const orderId = idOf(event.data['order'], 'the delivery names no parent order');
    const order = await getOrder(api, orderId);
    const shipping = order.shipping_orders?.find((candidate) => String(candidate.id) === id);
    if (!shipping) throw new Error(`shipping order ${id} is not part of order ${orderId}`);
    return shipping as Record<string, unknown>;
  }
  throw new Error(`no way to re-read the resource of a ${kind} event`);
}

function idOf(value: unknown, missing: string): string {
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return value;
  throw new Error(missing);
}
