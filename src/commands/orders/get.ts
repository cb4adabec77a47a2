import { getOrder } from '../../api/resources/orders.js';
import type { Order } from '../../api/schemas.js';
import type { Context } from '../../context.js';
import { money, named, timestamp } from '../../output/format.js';
import { isMachineOutput, printJson, printList, printRecord, write, type Column } from '../../output/render.js';

type LineItem = NonNullable<Order['line_items']>[number];
type ShippingOrder = NonNullable<Order['shipping_orders']>[number];

const summaryFields: Column<Order>[] = [
  { header: 'ID', value: (o) => o.id },
  { header: 'External ID', value: (o) => o.external_id },
  { header: 'Status', value: (o) => named(o.status) },
  { header: 'Payment status', value: (o) => named(o.payment_status) },
  { header: 'Type', value: (o) => named(o.type) },
  { header: 'Created', value: (o) => timestamp(o.created_at) },
  { header: 'Subtotal', value: (o) => money(o.subtotal) },
  { header: 'Shipping', value: (o) => money(o.shipping) },
  { header: 'Tax', value: (o) => money(o.tax) },
  { header: 'Total', value: (o) => money(o.total) },
];

/** A part's variant (`Navy / M`), from whichever attributes it carries. */
function variant(item: LineItem): string {
  return Object.values(item.part?.variant ?? {}).map(named).filter(Boolean).join(' / ');
}

const lineItemColumns: Column<LineItem>[] = [
  { header: 'ID', value: (i) => i.id },
  { header: 'Product', value: (i) => i.part?.product_name },
  { header: 'Variant', value: variant },
  { header: 'Quantity', value: (i) => i.quantity },
  { header: 'Price', value: (i) => money(i.price) },
  { header: 'Subtotal', value: (i) => money(i.subtotal) },
  { header: 'Status', value: (i) => named(i.status) },
];

function recipientName(s: ShippingOrder): string {
  const recipient = (s.recipient ?? {}) as { first_name?: unknown; last_name?: unknown };
  return [s.first_name ?? recipient.first_name, s.last_name ?? recipient.last_name].filter((part) => part !== null && part !== undefined && part !== '').join(' ');
}

const shippingOrderColumns: Column<ShippingOrder>[] = [
  { header: 'ID', value: (s) => s.id },
  { header: 'Recipient', value: recipientName },
  { header: 'City', value: (s) => s.address?.city },
  { header: 'Status', value: (s) => named(s.status) },
  { header: 'Tracking', value: (s) => s.tracking_number },
  { header: 'Items', value: (s) => (s.line_items ?? []).map((item) => `${item.id}x${item.quantity ?? ''}`).join(', ') },
];

/**
 * The order in sections: a field/value summary (statuses and totals), then the line items
 * and the shipping orders as tables on a TTY, or as TSV blocks (a `# name` line, then a
 * header row) when piped. `--json`/`--query` print the record as the service sent it.
 */
export async function run(ctx: Context, id: string): Promise<void> {
  await printOrder(ctx, await getOrder(ctx.api(), id));
}

/** The order as `orders get` shows it (also what `orders wait` prints once the order is there). */
export async function printOrder(ctx: Context, order: Order): Promise<void> {
  if (isMachineOutput(ctx.format)) {
    await printJson(ctx, order);
    return;
  }
  await printRecord(ctx, order, summaryFields);
  await section(ctx, 'Line items', order.line_items ?? [], lineItemColumns);
  await section(ctx, 'Shipping orders', order.shipping_orders ?? [], shippingOrderColumns);
}

async function section<T>(ctx: Context, title: string, records: T[], columns: Column<T>[]): Promise<void> {
  if (ctx.io.stdoutIsTTY) {
    ctx.io.out(`\n${title}${records.length === 0 ? ': none' : ''}`);
    if (records.length > 0) await printList(ctx, records, columns);
    return;
  }
  await write(ctx.io, `\n# ${title.toLowerCase().replace(/ /g, '_')}\n`);
  await printList(ctx, records, columns);
}
