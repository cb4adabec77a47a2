import { countByStatus, type ShipmentRecord } from '../../orders/track/shipment-record.js';
import type { ResultsRow } from '../../orders/track/results-rows.js';
import { isMachineOutput, printList, printsTable, type Column, type OutputTarget } from '../../output/render.js';
import { cell } from '../../output/sanitize.js';

/** How `orders track` shows the shipments of a send, and what it says about them. */

const column = {
  row: { header: 'Row', value: (s) => s.row, kind: 'number' },
  order: { header: 'Order ID', value: (s) => s.order_id, kind: 'fixed' },
  shipment: { header: 'Shipping order ID', value: (s) => s.shipping_order_id, kind: 'fixed' },
  recipient: { header: 'Recipient name', value: (s) => s.recipient_name },
  email: { header: 'Email', value: (s) => s.email },
  status: { header: 'Status', value: (s) => s.status, kind: 'fixed' },
  trackingNumber: { header: 'Tracking number', value: (s) => s.tracking_number, kind: 'fixed' },
  trackingUrl: { header: 'Tracking URL', value: (s) => s.tracking_url, kind: 'fixed' },
  shippingDate: { header: 'Shipping date', value: (s) => s.shipping_date, kind: 'fixed' },
} satisfies Record<string, Column<ShipmentRecord>>;

/** Piped, CSV: every column, named as the JSON record's fields. */
const pipedColumns = [column.row, column.order, column.shipment, column.recipient, column.email, column.status, column.trackingNumber, column.trackingUrl, column.shippingDate];

/**
 * The shipments: one record each; piped, CSV, JSON or JSONL as asked. On a terminal, a table
 * with short headers (the row column only when there are rows), and the email and the
 * tracking URL only when the table fits with them whole: a cut URL or address is no use,
 * and the name, status and tracking number matter more.
 */
export async function printShipments(ctx: OutputTarget, shipments: ShipmentRecord[]): Promise<void> {
  if (isMachineOutput(ctx.format) || !printsTable(ctx)) {
    await printList(ctx, shipments, pipedColumns, { noun: 'shipments' });
    return;
  }
  let columns: Column<ShipmentRecord>[] = [
    ...(shipments.some((s) => s.row !== null) ? [column.row] : []),
    { ...column.order, header: 'Order' },
    { ...column.shipment, header: 'Shipment' },
    { ...column.recipient, header: 'Recipient' },
    column.status,
    column.trackingNumber,
    { ...column.shippingDate, header: 'Ship date' },
  ];
  const leftOut: string[] = [];
  for (const [extra, at] of [[column.email, columns.indexOf(column.status)], [column.trackingUrl, Infinity]] as const) {
    const wider = [...columns.slice(0, at), extra, ...columns.slice(at)];
    if ((await naturalWidth(wider, shipments)) <= (ctx.io.columns ?? 80)) columns = wider;
    else if (shipments.some((s) => extra.value(s))) leftOut.push(extra.header);
  }
  // printList names them with any column the table itself leaves out, in one line (issue 42.3).
  await printList(ctx, shipments, columns, { noun: 'shipments', leftOut });
}

/** The width of the table with every value whole. */
async function naturalWidth(columns: Column<ShipmentRecord>[], shipments: ShipmentRecord[]): Promise<number> {
  const { default: stringWidth } = await import('string-width');
  const widths = columns.map((c) => Math.max(stringWidth(c.header), ...shipments.map((s) => stringWidth(cell(c.value(s))))));
  return widths.reduce((sum, width) => sum + width, 0) + 2 * (columns.length - 1);
}

/** `5 shipments: 3 Shipped, 2 Delivered` */
export function summary(shipments: readonly ShipmentRecord[]): string {
  const counts = countByStatus(shipments).map(({ status, count }) => `${count} ${status}`);
  const noun = shipments.length === 1 ? 'shipment' : 'shipments';
  return counts.length === 0 ? `0 shipments` : `${shipments.length} ${noun}: ${counts.join(', ')}`;
}

/** `row 3 (shipment 5003, order 1002)`, or `shipment 5003 (order 1002)` without a row. */
export function shipmentName(s: ShipmentRecord): string {
  return s.row === null ? `shipment ${s.shipping_order_id} (order ${s.order_id})` : `row ${s.row} (shipment ${s.shipping_order_id}, order ${s.order_id})`;
}

/** The first few of a list, then how many more: `a, b, c and 7 more`. */
export function someOf(items: string[], shown = 5): string {
  if (items.length <= shown) return items.join(', ');
  return `${items.slice(0, shown).join(', ')} and ${items.length - shown} more`;
}

/**
 * Results rows that no order holds, as the file says why: `rows 4-6 have no order
 * (refused: ...)`, consecutive rows with the same status and error in one range.
 */
export function rowsWithoutOrder(rows: readonly ResultsRow[]): string[] {
  const sorted = [...rows].sort((a, b) => a.row - b.row);
  const groups: { first: number; last: number; why: string }[] = [];
  for (const row of sorted) {
    const why = [row.status || 'no status', row.error].filter(Boolean).join(': ');
    const last = groups.at(-1);
    if (last && last.last === row.row - 1 && last.why === why) last.last = row.row;
    else groups.push({ first: row.row, last: row.row, why });
  }
  return groups.map(({ first, last, why }) => (first === last ? `row ${first} has no order (${why})` : `rows ${first}-${last} have no order (${why})`));
}
