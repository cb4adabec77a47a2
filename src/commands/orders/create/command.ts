import { createHash } from 'node:crypto';
import { ApiError } from '../../../api/errors.js';
import { getCustomProduct } from '../../../api/resources/custom-products.js';
import { listPaymentMethods } from '../../../api/resources/payment-methods.js';
import type { CustomProduct, PaymentMethod } from '../../../api/schemas.js';
import type { Context } from '../../../context.js';
import { CancelledError, UsageError } from '../../../errors.js';
import { BuildError, buildOrder, type BuiltOrder, type OrderPieces } from './builder.js';
import { piecesFromOptions, type CreateOptions } from './inputs.js';
import { OrderJournal } from './order-journal.js';
import type { OrderRequest } from './order-request.js';
import { printCreated } from './print.js';
import { fetchOrder, plan, send } from './send.js';
import { describePaymentMethod, formatSummary, summarise } from './summary.js';
import { summariseIssues, validateOrder } from './validate.js';

/**
 * `merch orders create`: flags, file and CSV (or the wizard's answers) -> one builder ->
 * local validation -> the journal -> one POST, exactly once.
 */
export async function run(ctx: Context, options: CreateOptions): Promise<void> {
  let pieces = await piecesFromOptions(options, ctx.io.stdin);
  let built = build(pieces);
  let confirmed = false;

  if (built.missing.length > 0) {
    if (!ctx.io.canPrompt) {
      throw new UsageError(
        `the order is incomplete: missing ${built.missing.join('; ')}`,
        'give the order with flags, --file or --recipients (see merch orders create --help), or run in a terminal for the wizard',
      );
    }
    const { runWizard } = await import('./wizard.js');
    pieces = await runWizard(ctx, pieces);
    built = build(pieces);
    confirmed = true;
    if (built.missing.length > 0) throw new UsageError(`the order is incomplete: missing ${built.missing.join('; ')}`);
  }

  const client = ctx.api();
  let paymentLabel: string | undefined;
  if (built.body.payment_method_id === undefined) {
    const method = await defaultPaymentMethod(ctx);
    paymentLabel = `${describePaymentMethod(method)}, the account default`;
    ctx.io.err(`payment method: ${method.id} (${paymentLabel})`);
    // the same as building again with --payment-method, without redoing thousands of rows
    built = { ...built, body: { ...built.body, payment_method_id: method.id } };
  }

  const products = await fetchProducts(ctx, built.body);
  const available = new Map([...products].map(([id, p]) => [id, p ? ((p.available_attributes ?? {}) as Record<string, unknown>) : null]));
  const result = validateOrder(built.body, { products: available, sources: built.sources });
  if (!result.ok) {
    throw new UsageError(summariseIssues(result.issues), 'nothing was sent; fix the order and run again');
  }
  const body = result.body;
  const journal = await OrderJournal.open(ctx.settings.configDir);
  const given = body.external_id;
  const p = plan(journal, withoutExternalId(body), scopeOf(ctx), given);

  if (options.dryRun) {
    await writeOut(ctx, `${JSON.stringify({ ...body, external_id: p.externalId }, null, 2)}\n`);
    return;
  }

  if (p.existing) {
    ctx.io.err(
      `this order was already created (order ${p.existing.order_id}, external id ${p.existing.external_id}); nothing sent${p.origin === 'journal' ? '. To order the same again, pass a new --external-id' : ''}`,
    );
    await printCreated(ctx, await fetchOrder(client, p.existing.order_id), p.existing.external_id);
    return;
  }

  if (!confirmed && !ctx.yes) {
    if (!ctx.io.canPrompt) throw new UsageError('--yes required when not interactive', 'add --yes to create the order, or --dry-run to see it');
    ctx.io.out(formatSummary(summarise(body, products), paymentLabel ?? body.payment_method_id));
    const { confirm } = await import('@inquirer/prompts');
    const ok = await confirm({ message: 'Create this order?', default: false }, { input: ctx.io.stdin, output: ctx.io.stdout });
    if (!ok) throw new CancelledError('cancelled: no order was created');
  }

  if (p.origin === 'generated') ctx.io.err(`external id: ${p.externalId}`);
  else if (p.resumed) ctx.io.err(`finishing an earlier attempt: external id ${p.externalId}`);
  const sent = await send(client, journal, body, p);
  if (sent.duplicate) ctx.io.err(`the service already had order ${sent.orderId} for external id ${p.externalId}; it was created once`);
  await printCreated(ctx, sent.record ?? (await fetchOrder(client, sent.orderId)), p.externalId);
}

function build(pieces: OrderPieces): BuiltOrder {
  try {
    return buildOrder(pieces);
  } catch (err) {
    if (err instanceof BuildError) throw new UsageError(err.message);
    throw err;
  }
}

function withoutExternalId(body: OrderRequest): OrderRequest {
  const { external_id: _e, ...rest } = body;
  return rest;
}

/** What "the same command" is scoped to: the service, the account and the credential. */
function scopeOf(ctx: Context): string {
  const token = createHash('sha256').update(ctx.settings.token ?? '').digest('hex').slice(0, 16);
  return `${ctx.settings.baseUrl}|${ctx.settings.accountId ?? ''}|${token}`;
}

async function defaultPaymentMethod(ctx: Context): Promise<PaymentMethod> {
  const methods = await listPaymentMethods(ctx.api());
  const chosen = methods.find((m) => m.is_default === true) ?? (methods.length === 1 ? methods[0] : undefined);
  if (!chosen) {
    throw new UsageError(
      methods.length === 0 ? 'the account has no payment method' : 'the account has no default payment method',
      methods.length === 0 ? 'add one in the service, then run again' : `pass --payment-method (one of: ${methods.map((m) => m.id).join(', ')})`,
    );
  }
  return chosen;
}

/** Each distinct custom product once, a few at a time; a 404 is `null` (validation names it). */
export async function fetchProducts(ctx: Context, body: Record<string, unknown>): Promise<Map<number, CustomProduct | null>> {
  const ids = new Set<number>();
  if (Array.isArray(body.line_items)) {
    for (const li of body.line_items as { product?: unknown }[]) {
      if (typeof li?.product === 'number' && Number.isInteger(li.product) && li.product > 0) ids.add(li.product);
    }
  }
  const out = new Map<number, CustomProduct | null>();
  const queue = [...ids];
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      try {
        out.set(id, await getCustomProduct(ctx.api(), String(id)));
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) out.set(id, null);
        else throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, queue.length) }, worker));
  return out;
}

function writeOut(ctx: Context, text: string): Promise<void> {
  return new Promise((resolve, reject) => ctx.io.stdout.write(text, (err) => (err ? reject(err) : resolve())));
}
