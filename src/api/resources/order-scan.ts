import { array, bigint, looseObject, number, string, union, unknown, type Infer } from '../../lib/shapes.js';
import type { ApiClient } from '../client.js';
import type { Order } from '../schemas.js';
import { pagesByOffset } from '../paginate.js';
import { listOrders, showsExternalId } from './orders.js';

/**
 * Every order of the account, as a recipients list's run reads them to find the rows earlier
 * orders hold (src/orders/create/earlier-orders.ts). The order list's filters are not part of
 * the interface, so this reads every order of the account, pages fetched concurrently as
 * `--all` does.
 *
 * Memory stays flat however large the orders: the first page is one order, and the size of
 * the next ones (and how many are read at once) is chosen from the largest order seen, so
 * about SHIPMENTS_IN_FLIGHT shipping orders are in flight at a time. Pages are asked in id
 * order, so an order created meanwhile is added at the end and no page shifts. The
 * records are yielded as listed (one without what matching reads is read again by its id,
 * once, in src/orders/create/earlier-orders.ts). Records are read only as far as `keep`
 * needs (the comparison reads the rest, order-content.ts): a run of 100,000 rows lists as
 * many shipping orders.
 */

/** A listed order as the scan reads it: its id, external id, and its items and shipments left as they came. */
const listedOrder = looseObject({
  // A BigInt beyond 2^53 (lib/exact-json.ts), as schemas.ts's ids.
  id: union([union([number(), bigint()]), string()]),
  external_id: string().nullish(),
  line_items: array(unknown()).nullish(),
  shipping_orders: array(unknown()).nullish(),
});
type ListedOrder = Infer<typeof listedOrder>;

/** Shipping orders in flight at a time, about: pages at once x orders a page x the largest order's shipping orders seen. */
const SHIPMENTS_IN_FLIGHT = 1_000;
const MAX_PAGE = 100;
const MAX_CONCURRENCY = 8;

/** The account's orders as the scan finds them, and, once read through, what it saw of them (`counted`: the first page's `count`, a hint of how many there are). */
export interface OrderScan extends AsyncIterable<Order> {
  /** How many of the account's orders were read, and how many of them show an external id (a service may leave the field out). */
  readonly seen: { orders: number; showingExternalId: number; counted?: number };
}

export function scanOrders(client: ApiClient): OrderScan {
  const seen: OrderScan['seen'] = { orders: 0, showingExternalId: 0 };
  return { seen, [Symbol.asyncIterator]: () => scan(client, seen) };
}

async function* scan(client: ApiClient, seen: OrderScan['seen']): AsyncGenerator<Order> {
  // An order listed twice (pages that shift while orders are made, an ordering the service
  // ignores) is read once (docs/service-assumptions.md, R7).
  const read = new Set<string>();
  const fresh = (order: ListedOrder) => {
    const id = String(order.id);
    if (read.has(id)) return false;
    read.add(id);
    return true;
  };
  // The first page holds one order; each round of pages is then sized by the largest order
  // seen so far, so a run of big orders is read a few at a time and small ones 100 a page.
  let largest = 1;
  let offset = 0;
  /** How many orders the account has, as the first page's `count` says (no more pages are asked for than it needs). */
  let total: number | undefined;
  /** The most a page has held when it held less than asked and was not the last: the service's own cap. */
  let cap = MAX_PAGE;
  for (let concurrency = 1, limit = 1; ; ) {
    if (total !== undefined) concurrency = clamp(Math.ceil((total - offset) / limit), 1, concurrency);
    const pages = await Promise.all(Array.from({ length: concurrency }, (_, i) => page(client, limit, offset + i * limit, (count) => (seen.counted = total ??= count))));
    // A service that pages otherwise (its `next` carries no offset) is read by its `next` links.
    if (offset === 0 && typeof pages[0]!.next === 'string' && !pagesByOffset(pages[0]!.next)) {
      for await (const order of listOrders(client, { limit: MAX_PAGE, all: true, concurrency: 1 }, { ordering: 'id' }, listedOrder)) {
        if (!fresh(order)) continue;
        seen.orders++;
        if (showsExternalId(order)) seen.showingExternalId++;
        yield order as Order;
      }
      return;
    }
    for (const { orders, last } of pages) {
      for (const order of orders) {
        if (!fresh(order)) continue;
        seen.orders++;
        if (showsExternalId(order)) seen.showingExternalId++;
        largest = Math.max(largest, order.shipping_orders?.length ?? 0);
        yield order as Order;
      }
      offset += orders.length;
      // A page shorter than asked is not the end (a service may cap pages silently): no `next` is.
      if (last) return;
      // The pages after a short one were asked at offsets past what it held: asked again, a cap's size each.
      if (orders.length < limit) {
        cap = Math.max(1, orders.length);
        break;
      }
    }
    limit = clamp(Math.floor(SHIPMENTS_IN_FLIGHT / (MAX_CONCURRENCY * largest)), 1, cap);
    concurrency = clamp(Math.floor(SHIPMENTS_IN_FLIGHT / (limit * largest)), 1, MAX_CONCURRENCY);
  }
}

/** One page of the account's orders, in id order, and whether it is the last; `onCount` is told the page's `count` (a hint of all the orders there are), when it has one. */
async function page(client: ApiClient, limit: number, offset: number, onCount: (count: number) => void): Promise<{ orders: ListedOrder[]; last: boolean; next?: string | null }> {
  const orders: ListedOrder[] = [];
  let last = true;
  let next: string | null | undefined;
  const onProgress = (_fetched: number, count: number | undefined) => void (count !== undefined && onCount(count));
  const onPage = (seen: { last: boolean; next?: string | null }) => void ((last = seen.last), (next = seen.next));
  for await (const order of listOrders(client, { limit, offset, onProgress, onPage }, { ordering: 'id' }, listedOrder)) orders.push(order);
  return { orders, last, next };
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}
