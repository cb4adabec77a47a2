import { listOrders } from '../../api/resources/orders.js';
import type { Order } from '../../api/schemas.js';
import type { Context } from '../../context.js';
import { money, named, timestamp } from '../../output/format.js';
import { printList, type Column } from '../../output/render.js';
import { pageOptions, type PageFlags } from '../page-options.js';

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

export async function run(ctx: Context, options: PageFlags): Promise<void> {
  const page = pageOptions(ctx, options);
  try {
    await printList(ctx, listOrders(ctx.api(), page), orderColumns, { noun: 'orders', page });
  } finally {
    page.done();
  }
}
