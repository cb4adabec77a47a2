import type { CustomProduct } from '../../api/schemas.js';
import { readMoney, sum, times, type Money } from '../../contract/money.js';
import type { OrderRequest } from '../../contract/order-request.js';

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
  product: number | bigint;
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

export function pricePlan(body: OrderRequest, products: ReadonlyMap<number | bigint, CustomProduct | null>): PricedPlan {
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
  return readMoney(product?.prices?.price, product?.prices?.currency ?? '');
}

function warningsOf(body: OrderRequest, products: ReadonlyMap<number | bigint, CustomProduct | null>): string[] {
  const totals = new Map<number | bigint, number>();
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
