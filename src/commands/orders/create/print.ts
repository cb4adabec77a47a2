import type { Order, PaymentMethod } from '../../../api/schemas.js';
import type { OrderRequest } from '../../../contract/order-request.js';
import type { PricedPlan } from '../../../orders/create/plan.js';
import { stringifyExact } from '../../../lib/exact-json.js';
import { describePaymentMethod } from '../../../orders/payment-method.js';
import { tsvCell } from '../../../output/csv.js';
import { money, named } from '../../../output/format.js';
import { isMachineOutput, printJson, write } from '../../../output/render.js';
import { cell, singleLine } from '../../../output/sanitize.js';
import { recipientName, shipmentItems, type ShippingOrder } from '../shipment.js';
import type { CreateTerminal } from './terminal.js';

/** `visa ending 4242 pm_...`: the payment method as the plan names it (its id alone when the account does not list it). */
export function paymentOf(order: { paymentMethod?: PaymentMethod; body?: { payment_method_id: string } }): string | undefined {
  return order.paymentMethod ? `${describePaymentMethod(order.paymentMethod)} ${order.paymentMethod.id}` : order.body?.payment_method_id;
}

/** The stderr line naming the payment method an order is charged to when none was given. */
export function defaultPaymentNotice(method: PaymentMethod): string {
  // The method's id and description (a bank's name) are the service's: one line.
  return singleLine(`payment method: ${method.id} (${describePaymentMethod(method)}, the account default)`);
}

/** One order's priced plan on the terminal, before "Place this order?" (plan-view.ts, loaded when it is shown). */
export async function printOrderPlan(ctx: Pick<CreateTerminal, 'io'>, priced: PricedPlan, body: OrderRequest, payment: string | undefined): Promise<void> {
  const { formatPlan } = await import('./plan-view.js');
  ctx.io.out(formatPlan(ctx.io, priced, body, payment));
}

/**
 * `--dry-run` of one order (from flags, a file or the wizard, or a recipients list sent as
 * one order): with --json (or --query) `{request, plan}`; on a terminal the plan, then the
 * body; piped, the exact body alone, as scripts have always read it.
 */
export async function printDryRun(ctx: CreateTerminal, request: OrderRequest, priced: PricedPlan, payment: string | undefined): Promise<void> {
  if (isMachineOutput(ctx.format)) return printJson(ctx, { request, plan: priced });
  const body = `${stringifyExact(request, 2)}\n`;
  if (!ctx.io.stdoutIsTTY) return write(ctx.io, body);
  const { formatPlan } = await import('./plan-view.js');
  return write(ctx.io, `${formatPlan(ctx.io, priced, request, payment)}\n\nThe request body:\n${body}`);
}

function place(s: ShippingOrder): string {
  const a = s.address ?? ((s.recipient as { shipping_address?: ShippingOrder['address'] } | undefined)?.shipping_address ?? undefined);
  return [a?.city, a?.state, a?.postal_code, a?.country].filter((x) => typeof x === 'string' && x !== '').join(' ');
}

/**
 * The order record as --json prints it: the service's, with `outcome`: `created` (by this
 * run) or `existing` (an earlier run's, found, not placed again). A key of merch's own, as
 * the record's `status` is the service's.
 */
export function withOutcome(order: Order, outcome: 'created' | 'existing'): Order & { outcome: 'created' | 'existing' } {
  return { ...order, outcome };
}

/**
 * A placed order: with --json/--jsonl/--query the order record (withOutcome); otherwise one line for the order (id, status, total, external
 * id, and whether this run `created` it or it was `existing`) and one per shipping order. On
 * a TTY the columns are aligned; piped, they are tab-separated with a leading record type
 * (`order`, `shipping_order`) so `awk -F'\t'` can pick them.
 */
export async function printCreated(ctx: CreateTerminal, order: Order, externalId: string, status: 'created' | 'existing'): Promise<void> {
  if (isMachineOutput(ctx.format)) {
    await printJson(ctx, withOutcome(order, status));
    return;
  }
  const shipping = order.shipping_orders ?? [];
  // Piped, the items keep their first form (`1x2 2x1`), which scripts may already split.
  const items = (s: ShippingOrder) => (s.line_items ?? []).map((li) => `${cell(li.id)}x${cell(li.quantity)}`).join(' ');
  if (ctx.io.stdoutIsTTY) {
    const lines = [
      `Order ${cell(order.id)}  ${cell(named(order.status))}  total ${cell(money(order.total))}  (external id ${cell(externalId)}${status === 'existing' ? ', already created' : ''})`,
      ...shipping.map((s) => `  shipping order ${cell(s.id)}  ${cell(recipientName(s))}  ${cell(place(s))}  ${cell(shipmentItems(s))}`),
    ];
    await write(ctx.io, `${lines.join('\n')}\n`);
    return;
  }
  const rows = [
    ['order', order.id, named(order.status), money(order.total), externalId, status],
    ...shipping.map((s) => ['shipping_order', s.id, recipientName(s), place(s), items(s)]),
  ];
  await write(ctx.io, rows.map((r) => r.map(tsvCell).join('\t')).join('\n') + '\n');
}
