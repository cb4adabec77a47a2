import { listOrders } from '../../api/resources/orders.js';
import type { Order } from '../../api/schemas.js';
import type { Context } from '../../context.js';
import { filterParameters, isFiltering, keepPassing, type FilterTally, type OrderListFilter } from '../../orders/list-filter.js';
import { money, named, timestamp } from '../../output/format.js';
import { printList, type Column } from '../../output/render.js';
import type { OptionsOf } from '../declaration.js';
import { pageOptions } from '../page-options.js';
import type { declareList } from './declarations.js';

const orderColumns: Column<Order>[] = [
  { header: 'ID', value: (o) => o.id, kind: 'fixed' },
  { header: 'External ID', value: (o) => o.external_id },
  { header: 'Status', value: (o) => named(o.status) },
  { header: 'Payment', value: (o) => named(o.payment_status) },
  { header: 'Items', value: (o) => (o.line_items ?? []).reduce((sum, item) => sum + (item.quantity ?? 0), 0), kind: 'number' },
  { header: 'Shipments', value: (o) => (o.shipping_orders ?? []).length, kind: 'number' },
  { header: 'Total', value: (o) => money(o.total), kind: 'number' },
  { header: 'Created', value: (o) => timestamp(o.created_at), kind: 'fixed' },
];

/**
 * `orders list [--status NAME[,NAME]] [--since AGE|DATE]`: the service is asked to filter
 * and every record it sends is checked (src/orders/list-filter.ts). When it did not filter,
 * the records are filtered here while paging; without --all that is one page's worth, and
 * stderr says so.
 */
export async function run(ctx: Context, options: OptionsOf<typeof declareList>): Promise<void> {
  const page = pageOptions(ctx, options);
  const filter: OrderListFilter = { statuses: options.status, createdSince: options.since };
  const tally: FilterTally = { read: 0, kept: 0, serviceFiltered: true };
  const filtering = isFiltering(filter);
  const records = listOrders(ctx.api(), page, filterParameters(filter));
  try {
    await printList(ctx, filtering ? keepPassing(records, filter, tally) : records, orderColumns, {
      noun: 'orders',
      // A page's `count` is of what the service filtered: no guide to the orders kept here.
      page: { done: page.done, notShown: (printed) => (tally.serviceFiltered ? page.notShown(printed) : undefined) },
    });
  } finally {
    page.done();
  }
  if (filtering && !tally.serviceFiltered && !options.all) {
    ctx.io.err(`the service did not filter: ${tally.kept} of the ${tally.read} orders read match; --all filters every page`);
  }
}
