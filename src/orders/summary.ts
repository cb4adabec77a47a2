import type { CustomProduct, PaymentMethod } from '../api/schemas.js';
import type { OrderRequest } from '../contract/order-request.js';

/**
 * The summary shown before confirming an order: one row per line item with its unit price
 * and line total (from the custom products' prices), the recipients count and the total
 * before shipping and tax (which the service adds).
 */

export interface SummaryRow {
  id: number;
  product: string;
  attributes: string;
  quantity: number;
  unit: string;
  total: string;
}

export interface Summary {
  rows: SummaryRow[];
  recipients: number;
  units: number;
  total: string;
}

interface Price {
  amount: number;
  decimals: number;
  currency: string;
}

function priceOf(product: CustomProduct | null | undefined): Price | undefined {
  const price = product?.prices?.price;
  if (!price || typeof price.amount !== 'number') return undefined;
  // `display` is the decimal rendering of `amount`: it tells how many decimals `amount` has.
  const display = typeof price.display === 'string' ? price.display : '';
  const decimals = /\.(\d+)$/.exec(display)?.[1]?.length ?? 0;
  return { amount: price.amount, decimals, currency: product?.prices?.currency ?? '' };
}

function render(amount: number, decimals: number, currency: string): string {
  const text = (amount / 10 ** decimals).toFixed(decimals);
  return currency ? `${text} ${currency}` : text;
}

export function summarise(body: OrderRequest, products: ReadonlyMap<number, CustomProduct | null>): Summary {
  let total = 0;
  let totalKnown = true;
  let currency: string | undefined;
  let decimals = 0;
  const rows = body.line_items.map((li) => {
    const product = products.get(li.product);
    const price = priceOf(product);
    if (price) {
      if (currency === undefined) ({ currency, decimals } = price);
      if (price.currency !== currency || price.decimals !== decimals) totalKnown = false;
      total += price.amount * li.quantity;
    } else {
      totalKnown = false;
    }
    return {
      id: li.id,
      product: product?.name ? `${product.name} (${li.product})` : String(li.product),
      attributes: Object.entries(li.attributes)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', '),
      quantity: li.quantity,
      unit: price ? render(price.amount, price.decimals, price.currency) : '?',
      total: price ? render(price.amount * li.quantity, price.decimals, price.currency) : '?',
    };
  });
  return {
    rows,
    recipients: body.shipping_orders.length,
    units: body.line_items.reduce((n, li) => n + li.quantity, 0),
    total: totalKnown ? render(total, decimals, currency ?? '') : '?',
  };
}

/** Plain-text table of the summary (monospace, for a terminal). */
export function formatSummary(summary: Summary, paymentMethod?: string): string {
  const head = ['Line', 'Product', 'Attributes', 'Qty', 'Unit price', 'Line total'];
  const body = summary.rows.map((r) => [String(r.id), r.product, r.attributes, String(r.quantity), r.unit, r.total]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 3 || i >= 4 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  const out = [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)];
  out.push('');
  out.push(`Recipients: ${summary.recipients} (one shipping order each)`);
  out.push(`Units: ${summary.units}`);
  out.push(`Total before shipping and tax: ${summary.total}`);
  if (paymentMethod) out.push(`Payment method: ${paymentMethod}`);
  return out.join('\n');
}

/** `visa ending 4242`, `Chase ending 6789`. */
export function describePaymentMethod(m: PaymentMethod): string {
  if (m.card) return `${m.card.brand ?? 'card'} ending ${m.card.last4 ?? '?'}`;
  if (m.us_bank_account) return `${m.us_bank_account.bank_name ?? 'bank account'} ending ${m.us_bank_account.last4 ?? '?'}`;
  return m.type ?? 'payment method';
}
