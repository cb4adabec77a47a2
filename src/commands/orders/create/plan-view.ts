import type { OrderRequest } from '../../../contract/order-request.js';
import { SHIPPING_AND_TAX, type PricedPlan } from '../../../orders/create/plan.js';
import { shownMoney } from '../../../output/format.js';
import type { IO } from '../../../output/io.js';
import { table } from '../../../output/table.js';
import { wrapText } from '../../../output/wrap-text.js';

/**
 * The priced plan as a terminal shows it before "Place this order?": a table as wide as the
 * terminal, the shipments and who gets what, the subtotal, shipping and tax, the payment
 * method and the plan's warnings.
 */
export function formatPlan(io: Pick<IO, 'columns' | 'color'>, plan: PricedPlan, body: OrderRequest, payment?: string): string {
  // The product's id in a column of its own, never shortened; its name gives way on a narrow terminal.
  const rows = plan.line_items.map((l) => [
    String(l.id),
    String(l.product),
    l.name ?? '',
    l.variant,
    String(l.quantity),
    l.unit_price ? shownMoney(l.unit_price) : '?',
    l.subtotal ? shownMoney(l.subtotal) : '?',
  ]);
  const out = [table(io, ['Line', 'Product', 'Name', 'Variant', 'Qty', 'Unit price', 'Subtotal'], rows, ['fixed', 'fixed', 'text', 'text', 'number', 'number', 'number']).trimEnd(), ''];
  // The sentences below it broken between words where wider than the terminal (the recipients' indented lines are left whole).
  const prose = (line: string) => wrapText(line, io.columns ?? 80);
  out.push(prose(`Shipments: ${plan.shipments} (one per recipient)`));
  out.push(...recipients(body));
  out.push(prose(`Subtotal: ${plan.subtotal ? shownMoney(plan.subtotal) : 'unknown (a price is missing, or the currencies differ)'}`));
  out.push(prose(SHIPPING_AND_TAX));
  if (payment) out.push(prose(`Payment method: ${payment}`));
  out.push(...plan.warnings.map((w) => prose(`warning: ${w}`)));
  return out.join('\n');
}

/** Who gets what: the first recipients, then how many more. */
function recipients(body: OrderRequest, shown = 3): string[] {
  const lines = body.shipping_orders.slice(0, shown).map((so) => {
    const r = so.recipient;
    const name = [r.first_name, r.last_name].filter(Boolean).join(' ') || '(no name)';
    const place = [r.line_1, r.city, r.state, r.postal_code, r.country].filter(Boolean).join(', ');
    const items = so.line_items.map((li) => `item ${li.id} x ${li.quantity}`).join(', ');
    return `  ${name}, ${place}: ${items}`;
  });
  const more = body.shipping_orders.length - shown;
  if (more > 0) lines.push(`  and ${more} more recipient${more === 1 ? '' : 's'}`);
  return lines;
}

