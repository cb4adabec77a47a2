import type { ApiClient } from '../../api/client.js';
import { getOrder } from '../../api/resources/orders.js';
import type { Order } from '../../api/schemas.js';
import { address, money, named, timestamp } from '../../output/format.js';
import { isMachineOutput, printJson, printList, printRecord, printsTable, write, type Column, type OutputTarget } from '../../output/render.js';
import { recipientField, recipientName, shipmentItems, type ShippingOrder } from './shipment.js';

type LineItem = NonNullable<Order['line_items']>[number];

/** The order at a glance: where it stands, when it last changed, who pays, what it costs. */
const summaryFields: Column<Order>[] = [
  { header: 'ID', value: (o) => o.id },
  { header: 'External ID', value: (o) => o.external_id },
  { header: 'Status', value: (o) => named(o.status) },
  { header: 'Payment status', value: (o) => named(o.payment_status) },
  { header: 'Type', value: (o) => named(o.type) },
  { header: 'Created', value: (o) => timestamp(o.created_at) },
  { header: 'Modified', value: (o) => timestamp(o.modified_on) },
  { header: 'Billing address', value: (o) => address(o.billing_address) },
  { header: 'Subtotal', value: (o) => money(o.subtotal) },
  { header: 'Shipping', value: (o) => money(o.shipping) },
  { header: 'Storage', value: (o) => money(o.storage) },
  { header: 'Tax', value: (o) => money(o.tax) },
  { header: 'Total', value: (o) => money(o.total) },
];

/** A part's variant (`Navy / M`), from whichever attributes it carries. */
function variant(item: LineItem): string {
  return Object.values(item.part?.variant ?? {}).map(named).filter(Boolean).join(' / ');
}

/** On a narrow terminal the product's name gives way before the variant (what tells a order's items apart); ids and statuses stay whole. */
const lineItemColumns: Column<LineItem>[] = [
  { header: 'ID', value: (i) => i.id, kind: 'fixed' },
  { header: 'Product', value: (i) => i.part?.product_name, priority: 0 },
  { header: 'Variant', value: variant, min: 6 },
  { header: 'Quantity', value: (i) => i.quantity, kind: 'number' },
  { header: 'Price', value: (i) => money(i.price), kind: 'number' },
  { header: 'Subtotal', value: (i) => money(i.subtotal), kind: 'number' },
  { header: 'Status', value: (i) => named(i.status), kind: 'fixed' },
];

const shipment = {
  id: { header: 'ID', value: (s) => s.id, kind: 'fixed' },
  recipient: { header: 'Recipient', value: recipientName },
  city: { header: 'City', value: (s) => s.address?.city },
  status: { header: 'Status', value: (s) => named(s.status), kind: 'fixed' },
  method: { header: 'Method', value: (s) => named(s.shipping_method) },
  shipDate: { header: 'Ship date', value: (s) => s.shipping_date, kind: 'fixed' },
  items: { header: 'Items', value: shipmentItems },
  tracking: { header: 'Tracking', value: (s) => s.tracking_number, kind: 'fixed' },
  // Cut with … where the terminal is too narrow (a wrapped URL is no better to copy); whole when piped and in --json.
  trackingUrl: { header: 'Tracking URL', value: (s) => s.tracking_url, kind: 'text' },
} satisfies Record<string, Column<ShippingOrder>>;

/** The shipments on a terminal; their tracking has its own section, so a URL is cut only as much as the terminal needs. */
const shipmentColumns = [shipment.id, shipment.recipient, shipment.city, shipment.status, shipment.method, shipment.shipDate, shipment.items];
const trackingColumns = [shipment.id, { ...shipment.tracking, header: 'Tracking number' }, shipment.trackingUrl];
/** The shipments piped: the columns of earlier versions first (scripts cut by position), then the newer ones. */
const pipedShipmentColumns = [shipment.id, shipment.recipient, shipment.city, shipment.status, shipment.tracking, shipment.items, shipment.method, shipment.shipDate, shipment.trackingUrl];

const isTracked = (s: ShippingOrder) => Boolean(s.tracking_number || s.tracking_url);

/** `orders get --format csv`: one row per shipping order, what a spreadsheet user wants of one order. */
function shipmentRowColumns(order: Order): Column<ShippingOrder>[] {
  return [
    { header: 'Order ID', value: () => order.id },
    { header: 'Shipping order ID', value: (s) => s.id },
    { header: 'Recipient name', value: recipientName },
    { header: 'Email', value: (s) => recipientField(s, 'email') },
    { header: 'Address', value: (s) => address(s.address) },
    { header: 'Status', value: (s) => named(s.status) },
    { header: 'Tracking number', value: (s) => s.tracking_number },
    { header: 'Tracking URL', value: (s) => s.tracking_url },
  ];
}

/**
 * The order in sections: a field/value summary (statuses, totals, billing address), then
 * the line items and the shipping orders, as tables on a terminal (with the tracking of
 * the shipments that have one below), or as TSV blocks (a `# name` line, then a header
 * row; a shipment's tracking in its row) when piped. `--json`/`--query` print the record as
 * the service sent it; `--format csv` one row per shipping order.
 */
export async function run(id: string, { api, ...output }: OutputTarget & { api: ApiClient }): Promise<void> {
  await printOrder(output, await getOrder(api, id));
}

/** The order as `orders get` shows it (also what `orders wait` prints once the order is there). */
export async function printOrder(ctx: OutputTarget, order: Order): Promise<void> {
  if (isMachineOutput(ctx.format)) {
    await printJson(ctx, order);
    return;
  }
  if (ctx.format.delimited === 'csv') {
    await printList(ctx, order.shipping_orders ?? [], shipmentRowColumns(order));
    return;
  }
  const shipments = order.shipping_orders ?? [];
  await printRecord(ctx, order, summaryFields, { skipEmpty: true });
  await section(ctx, 'Line items', order.line_items ?? [], lineItemColumns);
  if (!printsTable(ctx)) {
    await section(ctx, 'Shipping orders', shipments, pipedShipmentColumns);
    return;
  }
  await section(ctx, 'Shipping orders', shipments, shipmentColumns);
  if (shipments.some(isTracked)) await section(ctx, 'Tracking', shipments.filter(isTracked), trackingColumns);
}

async function section<T>(ctx: OutputTarget, title: string, records: T[], columns: Column<T>[]): Promise<void> {
  if (printsTable(ctx)) {
    ctx.io.out(`\n${title}${records.length === 0 ? ': none' : ''}`);
    if (records.length > 0) await printList(ctx, records, columns);
    return;
  }
  await write(ctx.io, `\n# ${title.toLowerCase().replace(/ /g, '_')}\n`);
  await printList(ctx, records, columns);
}
