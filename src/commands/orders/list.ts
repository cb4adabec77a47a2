import { listOrders } from '../../api/resources/orders.js';
import type { Order } from '../../api/schemas.js';
import type { ApiClient } from '../../api/client.js';
import { CANCELLED, ORDER_PROGRESSION } from '../../orders/follow/status-progression.js';
import { filterParameters, isFiltering, keepPassing, statusKey, type FilterTally, type OrderListFilter } from '../../orders/list-filter.js';
import { money, named, timestamp } from '../../output/format.js';
import { printList, type Column, type OutputTarget } from '../../output/render.js';
import { pageOptions, type PageFlags } from '../page-options.js';

/**
 * On a narrow terminal (src/output/table.ts: priority, min) the external id is shortened
 * first (a UUID's first 8 characters still tell runs apart), then the item count left out;
 * the statuses stay whole.
 */
const orderColumns: Column<Order>[] = [
  { header: 'ID', value: (o) => o.id, kind: 'fixed', priority: 3 },
  { header: 'External ID', value: (o) => o.external_id, priority: 1, min: 8 },
  { header: 'Status', value: (o) => named(o.status), kind: 'fixed', priority: 3 },
  { header: 'Payment', value: (o) => named(o.payment_status), kind: 'fixed', priority: 2 },
  { header: 'Items', value: (o) => (o.line_items ?? []).reduce((sum, item) => sum + Number(item.quantity ?? 0), 0), kind: 'number', priority: 0 },
  { header: 'Shipments', value: (o) => (o.shipping_orders ?? []).length, kind: 'number', priority: 1 },
  { header: 'Total', value: (o) => money(o.total), kind: 'number', priority: 3 },
  { header: 'Created', value: (o) => timestamp(o.created_at), kind: 'fixed', priority: 2 },
];

/** The order statuses merch knows (the sandbox's; the specification shows only some, so others are sent as given). */
const KNOWN_STATUSES = [...ORDER_PROGRESSION, CANCELLED];

/** A --status that names no status merch knows (`shiped`) would list nothing, silently: said before the list. */
function unknownStatusWarning(status: string): string | undefined {
  if ((KNOWN_STATUSES as readonly string[]).includes(statusKey(status))) return undefined;
  return `warning: --status ${status}: not an order status merch knows (${KNOWN_STATUSES.join(', ')}); sent as given`;
}

/** The flags of `orders list`. */
export interface ListOptions extends PageFlags {
  status: string[] | undefined;
  since: Date | undefined;
}

/**
 * `orders list [--status NAME[,NAME]] [--since AGE|DATE]`: the service is asked to filter
 * and every record it sends is checked (src/orders/list-filter.ts). When it did not filter,
 * the records are filtered here while paging; without --all that is one page's worth, and
 * stderr says so.
 */
export async function run(options: ListOptions, { api, ...output }: OutputTarget & { api: ApiClient }): Promise<void> {
  const page = pageOptions(output, options);
  for (const status of options.status ?? []) {
    const warning = unknownStatusWarning(status);
    if (warning) output.io.err(warning);
  }
  const filter: OrderListFilter = { statuses: options.status, createdSince: options.since };
  const tally: FilterTally = { read: 0, kept: 0, serviceFiltered: true };
  const filtering = isFiltering(filter);
  const records = listOrders(api, page, filterParameters(filter));
  try {
    await printList(output, filtering ? keepPassing(records, filter, tally) : records, orderColumns, {
      noun: 'orders',
      // A page's `count` is of what the service filtered: no guide to the orders kept here.
      page: { done: page.done, notShown: (printed) => (tally.serviceFiltered ? page.notShown(printed) : undefined) },
    });
  } finally {
    page.done();
  }
  if (filtering && !tally.serviceFiltered && !options.all) {
    output.io.err(`the service did not filter: ${tally.kept} of the ${tally.read} orders read match; --all filters every page`);
  }
}
