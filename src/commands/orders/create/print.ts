import type { Order } from '../../../api/schemas.js';
import type { Context } from '../../../context.js';
import { money, named } from '../../../output/format.js';
import { isMachineOutput, printJson, write } from '../../../output/render.js';
import { cell } from '../../../output/sanitize.js';
import { recipientName, shipmentItems, type ShippingOrder } from '../shipment.js';


function place(s: ShippingOrder): string {
  const a = s.address ?? ((s.recipient as { shipping_address?: ShippingOrder['address'] } | undefined)?.shipping_address ?? undefined);
  return [a?.city, a?.state, a?.postal_code, a?.country].filter((x) => typeof x === 'string' && x !== '').join(' ');
}

/**
 * A created order: with --json/--jsonl/--query the order record; otherwise one line for
 * the order (id, status, total) and one per shipping order. On a TTY the columns are
 * aligned; piped, they are tab-separated with a leading record type (`order`,
 * `shipping_order`) so `awk -F'\t'` can pick them.
 */
export async function printCreated(ctx: Context, order: Order, externalId: string): Promise<void> {
  if (isMachineOutput(ctx.format)) {
    await printJson(ctx, order);
    return;
  }
  const shipping = order.shipping_orders ?? [];
  // Piped, the items keep their first form (`1x2 2x1`), which scripts may already split.
  const items = (s: ShippingOrder) => (s.line_items ?? []).map((li) => `${cell(li.id)}x${cell(li.quantity)}`).join(' ');
  if (ctx.io.stdoutIsTTY) {
    const lines = [
      `Order ${cell(order.id)}  ${cell(named(order.status))}  total ${cell(money(order.total))}  (external id ${cell(externalId)})`,
      ...shipping.map((s) => `  shipping order ${cell(s.id)}  ${cell(recipientName(s))}  ${cell(place(s))}  ${cell(shipmentItems(s))}`),
    ];
    await write(ctx.io, `${lines.join('\n')}\n`);
    return;
  }
  const rows = [
    ['order', order.id, named(order.status), money(order.total), externalId],
    ...shipping.map((s) => ['shipping_order', s.id, recipientName(s), place(s), items(s)]),
  ];
  await write(ctx.io, rows.map((r) => r.map(cell).join('\t')).join('\n') + '\n');
}
