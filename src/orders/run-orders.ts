import type { ApiClient } from '../api/client.js';
import { getOrder, listOrders } from '../api/resources/orders.js';
import type { Order } from '../api/schemas.js';

/**
 * The orders of a run: a recipients list sent as one order has the run id as its external
 * id, a list sent in batches `<run id>-<k>` (k = 1, 2, ...). The order list's filters are
 * not part of the interface, so finding them reads every order of the account, pages
 * fetched concurrently as `--all` does, and keeps the run's.
 *
 * Memory stays flat however large the orders: the first page is small, and the size of
 * the next ones (and how many are read at once) is chosen from the shipping orders it held,
 * so about MAX_SHIPMENTS_IN_FLIGHT shipping orders are in memory at a time. Pages are asked
 * in id order, so an order created meanwhile is added at the end and no page shifts. A
 * listed record without its line items or shipping orders is read whole by its id.
 */

/** The batch number of an external id in a run: 0 for the run id itself, k for `<run id>-<k>`; undefined for another order's. */
export function batchOfRun(externalId: string | null | undefined, runId: string): number | undefined {
  if (externalId === runId) return 0;
  if (!externalId?.startsWith(`${runId}-`)) return undefined;
  const suffix = externalId.slice(runId.length + 1);
  return /^[1-9]\d{0,8}$/.test(suffix) ? Number(suffix) : undefined;
}

const FIRST_PAGE = 10;
const MAX_PAGE = 100;
const MAX_CONCURRENCY = 8;
const MAX_SHIPMENTS_IN_FLIGHT = 8_000;

export async function* scanRunOrders(client: ApiClient, runId: string): AsyncGenerator<Order> {
  const query = { ordering: 'id' };
  let seen = 0;
  let shipments = 0;
  for await (const order of listOrders(client, { limit: FIRST_PAGE }, query)) {
    seen++;
    shipments += order.shipping_orders?.length ?? 0;
    if (batchOfRun(order.external_id, runId) !== undefined) yield await whole(client, order);
  }
  if (seen < FIRST_PAGE) return;
  const perOrder = Math.max(1, shipments / seen);
  const limit = clamp(Math.floor(MAX_SHIPMENTS_IN_FLIGHT / MAX_CONCURRENCY / perOrder), 1, MAX_PAGE);
  const concurrency = clamp(Math.floor(MAX_SHIPMENTS_IN_FLIGHT / (limit * perOrder)), 1, MAX_CONCURRENCY);
  for await (const order of listOrders(client, { limit, offset: seen, all: true, concurrency }, query)) {
    if (batchOfRun(order.external_id, runId) !== undefined) yield await whole(client, order);
  }
}

async function whole(client: ApiClient, order: Order): Promise<Order> {
  return Array.isArray(order.line_items) && Array.isArray(order.shipping_orders) ? order : getOrder(client, String(order.id));
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}
