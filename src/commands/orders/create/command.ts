import { createHash } from 'node:crypto';
import { ApiError } from '../../../api/errors.js';
import { getOrder } from '../../../api/resources/orders.js';
import type { Order } from '../../../api/schemas.js';
import type { OrderRequest } from '../../../contract/order-request.js';
import type { Context } from '../../../context.js';
import { CancelledError, CliError, ExitCode, UsageError } from '../../../errors.js';
import { plan as planSend, send } from '../../../orders/exactly-once.js';
import { piecesFromFlags, type OrderFlags } from '../../../orders/inputs.js';
import { OrderJournal } from '../../../orders/journal.js';
import { prepareOrder, type PreparedOrder } from '../../../orders/prepare.js';
import { describePaymentMethod } from '../../../orders/payment-method.js';
import { pricePlan, type PricedPlan } from '../../../orders/plan.js';
import { formatWarnings } from '../../../orders/validate.js';
import { isMachineOutput, printJson } from '../../../output/render.js';
import { printCreated } from './print.js';

/**
 * `merch orders create`: flags, file and CSV (or the wizard's answers) -> the order domain
 * (src/orders/: built and validated once) -> confirmation -> sent exactly once.
 */
export async function run(ctx: Context, options: OrderFlags): Promise<void> {
  const { batchSize, recipients } = options;
  if (batchSize !== undefined) {
    if (recipients === undefined) throw new UsageError('--batch-size needs --recipients (a CSV to split into orders)');
    return (await import('./batched.js')).runBatched(ctx, { ...options, recipients, batchSize }, scopeOf(ctx));
  }
  if (options.results !== undefined) throw new UsageError('--results needs --batch-size', 'to put every row in one order, pass a --batch-size of at least the number of rows');
  if (options.concurrency !== undefined) throw new UsageError('--concurrency needs --batch-size');
  const order = await prepare(ctx, options);
  if (order.paymentIsDefault && order.paymentMethod) {
    ctx.io.err(`payment method: ${order.paymentMethod.id} (${describePaymentMethod(order.paymentMethod)}, the account default)`);
  }
  for (const line of formatWarnings(order.warnings)) ctx.io.err(line);
  const priced = pricePlan(order.body, order.products);
  // On a terminal the plan's warnings are in its table; elsewhere on stderr.
  if (!ctx.io.stdoutIsTTY || isMachineOutput(ctx.format)) for (const w of priced.warnings) ctx.io.err(`warning: ${w}`);

  const journal = await OrderJournal.open(ctx.settings.configDir);
  try {
    const p = planSend(journal, withoutExternalId(order.body), scopeOf(ctx), order.body.external_id);
    if (options.dryRun) {
      await printDryRun(ctx, { ...order.body, external_id: p.externalId }, order, priced);
      return;
    }
    if (p.existing) {
      ctx.io.err(
        `this order was already created (order ${p.existing.order_id}, external id ${p.existing.external_id}); nothing sent${p.origin === 'journal' ? '. To order the same again, pass a new --external-id' : ''}`,
      );
      await printCreated(ctx, await fetchCreated(ctx, p.existing.order_id), p.existing.external_id);
      return;
    }
    await confirm(ctx, order, priced);
    if (p.origin === 'generated') ctx.io.err(`external id: ${p.externalId}`);
    else if (p.resumed) ctx.io.err(`finishing an earlier attempt: external id ${p.externalId}`);
    const sent = await send(ctx.api(), journal, order.body, p);
    if (sent.duplicate) ctx.io.err(`already created: order ${sent.orderId} (external id ${p.externalId}); it was created once`);
    await printCreated(ctx, sent.record ?? (await fetchCreated(ctx, sent.orderId)), p.externalId);
  } finally {
    await journal.close();
  }
}

/** The order from the flags, completed by the wizard on a terminal when pieces are missing. */
async function prepare(ctx: Context, options: OrderFlags): Promise<PreparedOrder> {
  const pieces = await piecesFromFlags(options, ctx.io.stdin);
  const first = await prepareOrder(ctx.api(), pieces);
  if (first.complete) return first.order;
  if (!ctx.io.canPrompt) {
    throw new UsageError(
      `the order is incomplete: missing ${first.missing.join('; ')}`,
      'give the order with flags, --file or --recipients (see merch orders create --help), or run in a terminal for the wizard',
    );
  }
  const { runWizard } = await import('./wizard.js');
  const completed = await prepareOrder(ctx.api(), await runWizard(ctx, pieces));
  if (!completed.complete) throw new UsageError(`the order is incomplete: missing ${completed.missing.join('; ')}`);
  return completed.order;
}

/** Placing an order spends money: the priced plan, then a question whose default is no. */
async function confirm(ctx: Context, order: PreparedOrder, priced: PricedPlan): Promise<void> {
  if (ctx.yes) return;
  if (!ctx.io.canPrompt) throw new UsageError('--yes required when not interactive', 'add --yes to create the order, or --dry-run to see it');
  const { formatPlan } = await import('./plan-view.js');
  ctx.io.out(formatPlan(ctx.io, priced, order.body, paymentOf(order)));
  const { confirm: ask } = await import('@inquirer/prompts');
  const ok = await ask({ message: 'Place this order?', default: false }, { input: ctx.io.stdin, output: ctx.io.stdout });
  if (!ok) throw new CancelledError('cancelled: no order was created');
}

/**
 * `--dry-run`: with --json (or --query) `{request, plan}`; on a terminal the plan, then the
 * body; piped, the exact body alone, as scripts have always read it.
 */
async function printDryRun(ctx: Context, request: OrderRequest, order: PreparedOrder, priced: PricedPlan): Promise<void> {
  if (isMachineOutput(ctx.format)) return printJson(ctx, { request, plan: priced });
  const body = `${JSON.stringify(request, null, 2)}\n`;
  if (!ctx.io.stdoutIsTTY) return writeOut(ctx, body);
  const { formatPlan } = await import('./plan-view.js');
  await writeOut(ctx, `${formatPlan(ctx.io, priced, request, paymentOf(order))}\n\nThe request body:\n${body}`);
}

function paymentOf(order: PreparedOrder): string {
  return order.paymentMethod ? `${describePaymentMethod(order.paymentMethod)} ${order.paymentMethod.id}` : order.body.payment_method_id;
}

/** The order a create made or found; one the service no longer has is said plainly. */
async function fetchCreated(ctx: Context, id: number | string): Promise<Order> {
  try {
    return await getOrder(ctx.api(), String(id));
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
    throw new CliError(
      `order ${id}, which this command created, is not in the service any more`,
      ExitCode.notFound,
      'to place the order again, pass a new --external-id',
    );
  }
}

function withoutExternalId(body: OrderRequest): OrderRequest {
  const { external_id: _e, ...rest } = body;
  return rest;
}

/**
 * What "the same command" is scoped to: the service and the account (the token stands in for
 * the account when no account id is known; a refreshed token keeps the account's scope).
 */
function scopeOf(ctx: Context): string {
  const account = ctx.settings.accountId ?? createHash('sha256').update(ctx.settings.token ?? '').digest('hex').slice(0, 16);
  return `${ctx.settings.baseUrl}|${account}`;
}

function writeOut(ctx: Context, text: string): Promise<void> {
  return new Promise((resolve, reject) => ctx.io.stdout.write(text, (err) => (err ? reject(err) : resolve())));
}
