import { sameExternalId } from '../../lib/external-id.js';
import { pathSegment } from '../path-segment.js';
import type { ApiClient } from '../client.js';
import { paginate, type PageOptions } from '../paginate.js';
import type { ResponseSchema } from '../../lib/shapes.js';
import { orderSchema, type Order } from '../schemas.js';

export interface OrderFilters {
  /** The sandbox honours it; a service that does not returns every order (see findOrderByExternalId). */
  external_id?: string;
  ordering?: string;
  /** Status names, comma separated; and the earliest `created_at`, ISO 8601. Not shown in the spec: the sandbox honours them, a service may not (src/orders/list-filter.ts). */
  status?: string;
  created_at__gte?: string;
}

/** The account's orders; `schema` reads each record (by default the whole lenient order schema). */
export function listOrders<T = Order>(client: ApiClient, page: PageOptions, filters: OrderFilters = {}, schema: ResponseSchema<T> = orderSchema as unknown as ResponseSchema<T>): AsyncGenerator<T> {
  return paginate(client, '/v1/orders', { ...filters }, schema, page);
}

export function getOrder(client: ApiClient, id: string): Promise<Order> {
  return client.get(`/v1/orders/${pathSegment(id)}`, undefined, orderSchema);
}

/**
 * `POST /v1/orders/`, sent once: whether to send it again is decided by a look-up of its
 * external id (src/orders/create/exactly-once.ts), since a service may accept a repeated one.
 * Resolves with the status and the response body, which the spec only promises carries the order id.
 */
export async function createOrder(client: ApiClient, body: object): Promise<{ status: number; body: unknown }> {
  const response = await client.request({ method: 'POST', path: '/v1/orders/', body, retry: false });
  return { status: response.status, body: response.data };
}

/** How many of the newest orders are read for an external id when the service ignores the filter. */
export const EXTERNAL_ID_SCAN_LIMIT = 500;

export interface ExternalIdLookup {
  order?: Order;
  /** False when the service ignored `?external_id=` and the bounded scan of the newest orders found nothing: the order may still exist. */
  definitive: boolean;
}

/**
 * The order with this external id. Asks with `?external_id=` and believes the answer only
 * when the returned record carries that id, or when none is returned (Django REST Framework
 * ignores an unknown query parameter and returns every order); otherwise reads the newest
 * orders (`ordering=-created_at`), EXTERNAL_ID_SCAN_LIMIT at most, for a record whose
 * `external_id` matches. Not finding it is definitive only when the records read show their
 * external ids (a service may leave the field out: then nothing can be told) and the scan
 * read them all.
 */
export async function findOrderByExternalId(client: ApiClient, externalId: string): Promise<ExternalIdLookup> {
  let honoured = true;
  for await (const order of listOrders(client, { limit: 100 }, { external_id: externalId })) {
    if (sameExternalId(order.external_id, externalId)) return { order, definitive: true };
    honoured = false;
    break;
  }
  if (honoured) return { definitive: true };
  let read = 0;
  let shown = false;
  for await (const order of listOrders(client, { limit: 100, all: true, concurrency: 1 }, { ordering: '-created_at' })) {
    if (sameExternalId(order.external_id, externalId)) return { order, definitive: true };
    shown ||= showsExternalId(order);
    if (++read >= EXTERNAL_ID_SCAN_LIMIT) break;
  }
  return { definitive: (read === 0 || shown) && read < EXTERNAL_ID_SCAN_LIMIT };
}

/** Whether a record of the service shows its external id (a null counts: the field is there). */
export function showsExternalId(order: object): boolean {
  return 'external_id' in order;
}
