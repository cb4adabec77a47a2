import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { plan as planSend } from '../../../orders/create/exactly-once.js';
import { OrderJournal } from '../../../orders/create/order-journal.js';
import { offeringsOf, placeOrder, type PlaceOrderEvent } from '../../../orders/create/place-order.js';
import { pricePlan, type PricedPlan } from '../../../orders/create/plan.js';
import { prepareOrder, type PreparedOrder } from '../../../orders/create/prepare.js';
import { accountLookupsOf, ordersOf } from '../service-ports.js';
import { formatWarnings } from '../../../orders/create/validate.js';
import { isMachineOutput } from '../../../output/render.js';
import { singleLine } from '../../../output/sanitize.js';
import { checkInputFile } from '../../path-flags.js';
import { checkResultsFlags } from './results-flags.js';
import { missingFlags, piecesFromFlags, type OrderFlags } from './inputs.js';
import { inContractWords } from './outcomes.js';
import { defaultPaymentNotice, paymentOf, printCreated, printDryRun, printOrderPlan } from './print.js';
import { confirmPlacing } from './confirm.js';
import { legacyKey, withoutExternalId } from '../../../orders/create/order-journal.js';
import { identityOfBody, shipmentDigests } from '../../../orders/create/order-identity.js';
import { orderScopeOf } from '../order-scope.js';

/**
 * `merch orders create`: flags, file or the wizard's answers -> the order domain (src/orders/:
 * built and validated once) -> confirmation -> placed exactly once (placeOrder). A
 * recipients list (`--recipients`) is a run of its own (list.ts: placeBatches). This layer maps
 * flags to the domain's calls, renders what they return, and says their errors in the
 * contract's words (outcomes.ts).
 */
export async function run(ctx: Context, options: OrderFlags): Promise<void> {
  if (options.batchSize !== undefined && options.recipients === undefined) throw new UsageError('--batch-size needs --recipients (a CSV to split into orders)');
  if (options.results !== undefined && options.recipients === undefined) throw new UsageError('--results needs --recipients (one line per recipient row)');
  if (options.concurrency !== undefined && options.batchSize === undefined) throw new UsageError('--concurrency needs --batch-size');
  if (options.file !== undefined) await checkInputFile('--file', options.file);
  if (options.recipients !== undefined) await checkInputFile('--recipients', options.recipients);
  await checkResultsFlags(options);
  if (options.recipients !== undefined) {
    const { recipients } = options;
    return (await import('./recipients-list.js')).runList(ctx, { ...options, recipients }, await orderScopeOf(ctx));
  }
  return inContractWords(() => runOne(ctx, options));
}

async function runOne(ctx: Context, options: OrderFlags): Promise<void> {
  const { order, viaWizard } = await prepare(ctx, options);
  const shown = planShown(ctx, options);
  // The plan names the payment method where it is shown; elsewhere a line on stderr does.
  if (order.paymentIsDefault && order.paymentMethod && !shown) {
    ctx.io.err(defaultPaymentNotice(order.paymentMethod));
  }
  // A warning may quote the order's text (a file's, the service's): one line each.
  for (const line of formatWarnings(order.warnings)) ctx.io.err(singleLine(line));
  const priced = pricePlan(order.body, order.products);
  // On a terminal the plan's warnings are in its table; elsewhere on stderr.
  if (!ctx.io.stdoutIsTTY || isMachineOutput(ctx.format)) for (const w of priced.warnings) ctx.io.err(singleLine(`warning: ${w}`));
  const { scope, legacy } = await orderScopeOf(ctx);
  const journal = await OrderJournal.open(ctx.settings.configDir);
  try {
    const body = withoutExternalId(order.body);
    const offerings = offeringsOf(order.products);
    const p = planSend(journal, body, { ...identityOfBody(scope, body, offerings), legacyKey: legacyKey(body, legacy) }, order.body.external_id);
    if (options.dryRun) return await printDryRun(ctx, { ...order.body, external_id: p.externalId }, priced, paymentOf(order));
    const placed = await placeOrder({ body, products: order.products, journalled: { shipment_digests: shipmentDigests(body, offerings).hexAll() }, assumeUnsent: options.assumeUnsent === true }, p, {
      api: ordersOf(ctx),
      journal,
      confirm: () => confirm(ctx, order, priced),
      notify: (event) => {
        const line = eventLine(event);
        // A difference quotes the service's record of the order: one line.
        if (line !== undefined) ctx.io.err(singleLine(line));
      },
    }).catch(async (err: unknown) => {
      if (!viaWizard) throw err;
      throw (await import('./wizard-rerun.js')).withCommandLine(err, { ...order.body, external_id: p.externalId }, ctx.settings);
    });
    await printCreated(ctx, placed.record, placed.externalId, placed.status);
  } finally {
    await journal.close();
  }
}

function eventLine(event: PlaceOrderEvent): string | undefined {
  switch (event.kind) {
    case 'sending':
      if (event.resumed) return `finishing an earlier attempt: external id ${event.externalId}`;
      return event.origin === 'given' ? undefined : `external id: ${event.externalId}`;
    case 'stored otherwise':
      return `warning: created: order ${String(event.orderId)} (external id ${event.externalId}), but the service's record of it is not what was sent (${event.difference}): check it with merch orders get ${String(event.orderId)}`;
    case 'found':
      if (event.via === 'lost answer') return `created: order ${event.orderId} (external id ${event.externalId}); the answer was lost, and a look-up found the order it made`;
      return `already created: order ${event.orderId} (external id ${event.externalId}): the same order, not placed again${event.paidWith === undefined ? '' : ` (paid with ${event.paidWith})`}. To order the same again, pass a new --external-id`;
  }
}

/** The order from the flags, completed by the wizard on a terminal when pieces are missing. */
async function prepare(ctx: Context, options: OrderFlags): Promise<{ order: PreparedOrder; viaWizard: boolean }> {
  const pieces = await piecesFromFlags(options, ctx.io.stdin);
  const lookups = accountLookupsOf(ctx);
  const first = await prepareOrder(pieces, lookups);
  if (first.complete) return { order: first.order, viaWizard: false };
  if (!ctx.prompter.canPrompt) {
    throw new UsageError(
      `the order is incomplete: missing ${missingFlags(first.missing)}`,
      'give the order with flags, --file or --recipients (see merch orders create --help), or run in a terminal for the wizard',
    );
  }
  const { runWizard } = await import('./wizard.js');
  // What the first preparation fetched, and what the wizard reads, is not fetched again.
  const completed = await prepareOrder(await runWizard(ctx, pieces, lookups), lookups);
  if (!completed.complete) throw new UsageError(`the order is incomplete: missing ${missingFlags(completed.missing)}`);
  return { order: completed.order, viaWizard: true };
}

/** Whether the priced plan (which names the payment method) is shown: on a terminal, before the question or as the dry run. */
function planShown(ctx: Context, options: OrderFlags): boolean {
  if (options.dryRun) return ctx.io.stdoutIsTTY && !isMachineOutput(ctx.format);
  return !ctx.yes && ctx.prompter.canPrompt;
}

/** Placing an order spends money: the priced plan, then a question whose default is no. */
function confirm(ctx: Context, order: PreparedOrder, priced: PricedPlan): Promise<boolean> {
  return confirmPlacing(ctx, {
    message: 'Place this order?',
    hint: 'add --yes to create the order, or --dry-run to see it',
    show: () => printOrderPlan(ctx, priced, order.body, paymentOf(order)),
  });
}
