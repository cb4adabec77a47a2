import type { CustomProduct } from '../api/schemas.js';
import { sum, times, type Money } from '../contract/money.js';
import type { OrderRequest } from '../contract/order-request.js';

/**
 * The priced plan of an order, shown before it is placed (placing is charged and cannot be
 * undone): each line item with its product, variant, quantity, unit price (the custom
 * product's `prices`) and subtotal; the number of shipments; the subtotal. Shipping and tax
 * are the service's to compute when the order is created: never guessed here. It warns, and
 * never refuses (the service decides), when a product's total quantity is below its
 * `minimum`, the product is not `sellable`, or its design is not approved.
 */

export interface PlanLine {
  id: number;
  product: number;
  name: string | null;
  /** The attribute values, by attribute name: `Navy / M`. */
  variant: string;
  quantity: number;
  unit_price: Money | null;
  subtotal: Money | null;
}

export interface PricedPlan {
  line_items: PlanLine[];
  shipments: number;
  /** The sum of the line subtotals; null when a price is unknown or the currencies differ. */
  subtotal: Money | null;
  warnings: string[];
}

export const SHIPPING_AND_TAX = 'Shipping and tax are computed by the service when the order is created.';

export function pricePlan(body: OrderRequest, products: ReadonlyMap<number, CustomProduct | null>): PricedPlan {
  const lines = body.line_items.map((li): PlanLine => {
    const product = products.get(li.product);
    const unit = unitPrice(product);
    return {
      id: li.id,
      product: li.product,
      name: product?.name ?? null,
      variant: Object.values(li.attributes).join(' / '),
      quantity: li.quantity,
      unit_price: unit,
      subtotal: unit ? times(unit, li.quantity) : null,
    };
  });
  const subtotals = lines.map((l) => l.subtotal);
  const known = subtotals.every((s): s is Money => s !== null);
  return {
    line_items: lines,
    shipments: body.shipping_orders.length,
    subtotal: known ? (sum(subtotals) ?? null) : null,
    warnings: warningsOf(body, products),
  };
}

function unitPrice(product: CustomProduct | null | undefined): Money | null {
  const price = product?.prices?.price;
  if (!price || typeof price.amount !== 'number' || typeof price.display !== 'string') return null;
  return { currency: price.currency ?? product?.prices?.currency ?? '', amount: price.amount, display: price.display };
}

function warningsOf(body: OrderRequest, products: ReadonlyMap<number, CustomProduct | null>): string[] {
  const totals = new Map<number, number>();
  for (const li of body.line_items) totals.set(li.product, (totals.get(li.product) ?? 0) + li.quantity);
  const warnings: string[] = [];
  for (const [id, quantity] of totals) {
    const product = products.get(id);
    if (!product) continue;
    const label = product.name ? `${product.name} (${id})` : `product ${id}`;
    if (typeof product.minimum === 'number' && quantity < product.minimum) {
      warnings.push(`${label}: ${quantity} ordered, below its minimum of ${product.minimum}`);
    }
    if (product.sellable === false) warnings.push(`${label} is not sellable`);
    const design = product.design_status?.name;
    if (typeof design === 'string' && design !== 'Approved') warnings.push(`${label}: its design is not approved (${design})`);
  }
  return warnings;
}

export interface PlanText {
  /** How the payment method is named: `amex ending 6042 pm_...`. */
  payment?: string;
}

/** The plan as a terminal shows it: a table, the shipments and who gets what, the subtotal, shipping and tax. */
export function formatPlan(plan: PricedPlan, body: OrderRequest, options: PlanText = {}): string {
  const head = ['Line', 'Product', 'Variant', 'Qty', 'Unit price', 'Subtotal'];
  const rows = plan.line_items.map((l) => [
    String(l.id),
    l.name ? `${l.name} (${l.product})` : String(l.product),
    l.variant,
    String(l.quantity),
    l.unit_price ? shown(l.unit_price) : '?',
    l.subtotal ? shown(l.subtotal) : '?',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i >= 3 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  const out = [line(head), ...rows.map(line), ''];
  out.push(`Shipments: ${plan.shipments} (one per recipient)`);
  out.push(...recipients(body));
  out.push(`Subtotal: ${plan.subtotal ? shown(plan.subtotal) : 'unknown (a price is missing, or the currencies differ)'}`);
  out.push(SHIPPING_AND_TAX);
  if (options.payment) out.push(`Payment method: ${options.payment}`);
  out.push(...plan.warnings.map((w) => `warning: ${w}`));
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

function shown(m: Money): string {
  return m.currency ? `${m.display} ${m.currency}` : m.display;
}
