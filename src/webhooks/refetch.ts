import type { ApiClient } from '../api/client.js';
import { getCustomProduct } from '../api/resources/custom-products.js';
import { getOrder } from '../api/resources/orders.js';
import type { JournalEvent } from './event-journal.js';

/** Why an event's resource cannot be re-read: the delivery does not say which resource it is. */
export type Unreadable = 'no-id' | 'no-parent' | 'not-in-parent' | 'unknown-kind';

export class UnreadableEventError extends Error {
  constructor(
    message: string,
    readonly reason: Unreadable,
  ) {
    super(message);
    this.name = 'UnreadableEventError';
  }
}

/**
 * The resource an event names, read again through the authenticated API (deliveries are
 * unsigned, so `webhooks listen --refetch` prints this copy). A shipping order has no
 * endpoint of its own: it is found in its parent order. Throws UnreadableEventError when
 * the delivery does not name a resource, and the API's errors as they are.
 */
export async function refetch(api: ApiClient, event: JournalEvent): Promise<Record<string, unknown>> {
  const id = idOf(event.data['id'], () => new UnreadableEventError('the delivery names no resource id', 'no-id'));
  const kind = event.event;
  if (kind.startsWith('order.')) return (await getOrder(api, id)) as Record<string, unknown>;
  if (kind.startsWith('custom_product.')) return (await getCustomProduct(api, id)) as Record<string, unknown>;
  if (kind.startsWith('shipping_order.')) {
    const orderId = idOf(event.data['order'], () => new UnreadableEventError('the delivery names no parent order', 'no-parent'));
    const order = await getOrder(api, orderId);
    const shipping = order.shipping_orders?.find((candidate) => String(candidate.id) === id);
    if (!shipping) throw new UnreadableEventError(`shipping order ${id} is not part of order ${orderId}`, 'not-in-parent');
    return shipping as Record<string, unknown>;
  }
  throw new UnreadableEventError(`no way to re-read the resource of a ${kind} event`, 'unknown-kind');
}

function idOf(value: unknown, missing: () => UnreadableEventError): string {
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return value;
  throw missing();
}
