import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Money } from '../../contract/money.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { exactIntegerOf } from '../../lib/exact-json.js';
import { readRegularFile } from '../../lib/safe-files.js';
import type { ItemInput, MissingPiece, OrderPieces } from '../../orders/create/builder.js';
import { createOrders, type CreateEvent, type CreateOrdersPorts, type CreateOutcome, type CreateRequest } from '../../orders/create/engine.js';
import { OrderIncomplete, OutcomeUnknown, PlacingStopped, PlanChanged } from '../../orders/create/errors.js';
import type { PlacedOrder, PlaceOrderEvent } from '../../orders/create/place-order.js';
import type { ListEvent, ListOutcome, ListResult } from '../../orders/create/plan-batches.js';
import { SHIPPING_AND_TAX } from '../../orders/create/plan.js';
import { parseRecipientsCsv } from '../../orders/create/recipients-csv.js';
import { describeRows } from '../../orders/create/row-ranges.js';
import { formatWarnings } from '../../orders/create/validate.js';
import { shownMoney } from '../../output/format.js';
import { singleLine } from '../../output/sanitize.js';
import { paymentOf } from '../orders/create/print.js';
import { servicePorts } from '../orders/service-ports.js';
import { checkInputFile } from '../path-flags.js';
import { GuardRefused, SpendTally, type SpendingGuards } from './guards.js';
import { answer, type ToolSet } from './tool-kit.js';

/**
 * plan_order and place_order: an order (or a recipients list) validated and priced exactly
 * as `orders create --dry-run` (the same entry, src/orders/create/engine.ts, as a dry run),
 * kept in memory under a plan id; then placed by that id alone, re-validated, with the
 * plan's external id (the entry again: exactly once, journalled), under the spending guards.
 */

/** A plan kept by plan_order: the request place_order sends, planned to be this one; a list's file as it was (its hash). */
interface StoredPlan {
  request: CreateRequest & { planned: NonNullable<CreateRequest['planned']> };
  fileHash?: string;
  subtotal: Money | null;
  summary: string;
}

/** What a running server keeps: its plans, what it has spent, and one placing at a time. */
export class OrderDesk {
  readonly plans = new Map<string, StoredPlan>();
  readonly tally: SpendTally;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly guards: SpendingGuards) {
    this.tally = new SpendTally(guards);
  }

  /** One placing at a time: the caps are checked against what is spent, and the journal written, in turn. */
  serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

/** Asks the client's user before an order is sent (the protocol's elicitation); undefined when the client cannot ask. */
export type AskUser = (summary: string) => Promise<boolean | undefined>;

const KEYS = z.record(z.string(), z.string());
const ITEM = z.object({
  product: z.union([z.number(), z.string()]).describe('custom product id'),
  quantity: z.number().int().min(1).optional(),
  attributes: KEYS.optional().describe('e.g. {"color":"Navy"}'),
});

interface PlanArgs {
  items?: z.infer<typeof ITEM>[];
  recipient?: Record<string, string>;
  recipients?: Record<string, string>[];
  recipients_csv?: string;
  batch_size?: number;
  payment_method?: string;
  billing?: Record<string, string>;
  external_id?: string;
}

export function orderTools(ctx: Context, desk: OrderDesk, ask: AskUser): ToolSet {
  const tools: ToolSet = {
    plan_order: {
      description: 'Validate and price an order (as `merch orders create --dry-run`); sends nothing. Returns a plan_id for place_order.',
      inputSchema: {
        items: z.array(ITEM).optional(),
        recipient: KEYS.optional().describe('first_name, last_name, line_1, city, state, postal_code, country'),
        recipients: z.array(KEYS).optional(),
        recipients_csv: z.string().optional().describe('CSV path, a row per recipient'),
        batch_size: z.number().int().min(1).optional().describe('CSV: orders of at most N rows'),
        payment_method: z.string().optional().describe('default: the account default'),
        billing: KEYS.optional(),
        external_id: z.string().optional(),
      },
      outputSchema: { plan_id: z.string(), external_id: z.string(), subtotal: z.string().nullable(), warnings: z.array(z.string()), plan: z.looseObject({}) },
      annotations: { readOnlyHint: true, destructiveHint: false },
      run: (args: PlanArgs) => planOrder(ctx, desk, args),
    },
  };
  if (!desk.guards.allowOrders) return tools;
  tools.place_order = {
    description: 'Place a planned order by its plan_id: charged. A repeated call never places it twice.',
    inputSchema: { plan_id: z.string() },
    outputSchema: { plan_id: z.string(), status: z.string(), orders: z.array(z.looseObject({})), spent: z.string().nullable() },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    run: (args: { plan_id: string }) => placePlanned(ctx, desk, ask, args.plan_id),
  };
  return tools;
}

async function planOrder(ctx: Context, desk: OrderDesk, args: PlanArgs) {
  const given = [args.recipient, args.recipients, args.recipients_csv].filter((r) => r !== undefined).length;
  if (given !== 1) throw new UsageError('give one of recipient, recipients and recipients_csv');
  if (args.batch_size !== undefined && args.recipients_csv === undefined) throw new UsageError('batch_size needs recipients_csv');
  const externalId = args.external_id?.trim();
  if (externalId === '') throw new UsageError('external_id: must not be empty');
  const pieces: OrderPieces = {
    ...(args.items?.length ? { items: args.items.map(itemOf) } : {}),
    ...(externalId === undefined ? {} : { externalId }),
    ...(args.payment_method === undefined ? {} : { paymentMethodId: args.payment_method.trim() }),
    ...(args.billing === undefined ? {} : { billing: args.billing }),
  };
  const planId = `plan_${randomUUID()}`;
  const journalDir = ctx.settings.configDir;
  if (args.recipients_csv !== undefined) return planList(ctx, desk, planId, { pieces, recipients: { path: args.recipients_csv, file: args.recipients_csv }, batchSize: args.batch_size, journalDir });
  if (args.recipient !== undefined) pieces.recipient = args.recipient;
  if (args.recipients !== undefined) pieces.recipients = parseRecipientsCsv(csvOf(args.recipients), 'recipients');

  const { request, order, priced, bodyHash } = await create('order planned', { pieces, dryRun: true, journalDir }, servicePorts(ctx));
  const external = request.external_id;
  const subtotal = priced.subtotal;
  const warnings = [...formatWarnings(order.warnings), ...priced.warnings.map((w) => `warning: ${w}`)];
  const payment = paymentOf(order);
  const summary = `1 order, ${priced.shipments} ${priced.shipments === 1 ? 'recipient' : 'recipients'}, subtotal ${subtotal ? shownMoney(subtotal) : 'unknown'}${payment ? `, paid with ${payment}` : ''}`;
  // Placed as planned: with the plan's external id, and refused if its body is no longer this one.
  desk.plans.set(planId, { request: { pieces: { ...pieces, externalId: external }, journalDir, planned: { externalId: external, bodyHash } }, subtotal, summary });
  return answer(ctx, `${planId}: ${summary}. ${SHIPPING_AND_TAX}`, {
    plan_id: planId,
    external_id: external,
    subtotal: subtotal ? shownMoney(subtotal) : null,
    warnings,
    plan: { ...priced, payment_method: payment ?? null, request },
  });
}

async function planList(ctx: Context, desk: OrderDesk, planId: string, list: CreateRequest & { recipients: { path: string; file: string } }) {
  const { path } = list.recipients;
  await checkInputFile('recipients_csv', path);
  const fileHash = await hashOf(path);
  const { plan } = await create('list planned', { ...list, dryRun: true }, servicePorts(ctx));
  const warnings = [...formatWarnings(plan.warnings), ...plan.planWarnings.map((w) => `warning: ${w}`)];
  const payment = paymentOf(plan);
  const rows = plan.batches.reduce((n, b) => n + b.rows.length, 0);
  const held = plan.earlier.length === 0 ? '' : ` (the other rows are in ${plan.earlier.length} earlier ${plan.earlier.length === 1 ? 'order' : 'orders'}: not sent again)`;
  const summary = `${plan.batches.length} ${plan.batches.length === 1 ? 'order' : 'orders'} for ${rows} of ${plan.recipients} recipients${held}, subtotal ${plan.subtotal ? shownMoney(plan.subtotal) : 'unknown'}${payment ? `, paid with ${payment}` : ''}`;
  // Placed as planned: refused if the list's rows no longer make this run id.
  desk.plans.set(planId, { request: { ...list, planned: { externalId: plan.runId } }, fileHash, subtotal: plan.subtotal, summary });
  const { single } = plan;
  return answer(ctx, `${planId}: ${summary}. ${SHIPPING_AND_TAX}`, {
    plan_id: planId,
    external_id: plan.runId,
    subtotal: plan.subtotal ? shownMoney(plan.subtotal) : null,
    warnings,
    // The list as one order: its priced plan, as `orders create --recipients --dry-run --json` gives it.
    plan: { run_id: plan.runId, recipients: plan.recipients, earlier: plan.earlier, batches: plan.batches, payment_method: payment ?? null, ...(single ? { priced: single.priced } : {}) },
  });
}

async function placePlanned(ctx: Context, desk: OrderDesk, ask: AskUser, planId: string) {
  const stored = desk.plans.get(planId);
  if (stored === undefined) throw new UsageError(`no plan ${planId} on this server`, 'plan the order with plan_order first (plans last as long as the server)');
  return desk.serial(async () => {
    const list = stored.request.recipients;
    if (list !== undefined && (await hashOf(list.path)) !== stored.fileHash) throw new GuardRefused(`${list.file} has changed since it was planned`, 'plan it again with plan_order');
    let release: (() => void) | undefined;
    const ports: CreateOrdersPorts = {
      ...servicePorts(ctx),
      confirm: async (question) => {
        if (question.kind === 'list' && question.plan.batches.length === 0) return true;
        release = await clearToSend(desk, ask, question.kind === 'order' ? question.priced.subtotal : question.plan.subtotal, stored.summary);
        return true;
      },
    };
    try {
      if (list === undefined) return placedOrder(ctx, desk, planId, (await create('order placed', stored.request, ports, (event) => sayPlacing(ctx, event))).placed);
      return placedList(ctx, desk, planId, (await create('list placed', stored.request, ports, (event) => sayPlacing(ctx, event))).result);
    } catch (err) {
      if (release !== undefined && !(err instanceof OutcomeUnknown)) release();
      throw err;
    }
  });
}

/**
 * `orders create`'s one entry (src/orders/create/engine.ts), with the outcome this call asks
 * for (a dry run's plan, or what was placed), its refusals in this server's words.
 */
async function create<K extends CreateOutcome['kind']>(kind: K, request: CreateRequest, ports: CreateOrdersPorts, events: (event: CreateEvent) => void = () => undefined): Promise<Extract<CreateOutcome, { kind: K }>> {
  let outcome: CreateOutcome;
  try {
    outcome = await createOrders(request, ports, events);
  } catch (err) {
    if (err instanceof OrderIncomplete) throw new UsageError(`${err.message}: missing ${missingWords(err.missing)}`);
    if (err instanceof PlanChanged) throw new GuardRefused(err.message, 'plan it again with plan_order');
    throw err;
  }
  if (outcome.kind !== kind) throw new Error(`orders create came back ${outcome.kind}, not ${kind}`);
  return outcome as Extract<CreateOutcome, { kind: K }>;
}

/** The guards, then the user's yes: before anything is sent. Returns the release of what was counted as spent. */
async function clearToSend(desk: OrderDesk, ask: AskUser, subtotal: Money | null, summary: string): Promise<() => void> {
  const release = desk.tally.reserve(subtotal);
  try {
    const yes = await ask(summary);
    if (yes === false) throw new PlacingStopped('declined: no order was created');
  } catch (err) {
    release();
    throw err;
  }
  return release;
}

function placedOrder(ctx: Context, desk: OrderDesk, planId: string, placed: PlacedOrder) {
  ctx.io.err(`${placed.status === 'created' ? 'created' : 'already created'}: order ${String(placed.orderId)} (external id ${placed.externalId})`);
  return answer(ctx, `order ${String(placed.orderId)} ${placed.status === 'created' ? 'created' : 'already created, not placed again'} (external id ${placed.externalId})`, {
    plan_id: planId,
    status: placed.status,
    orders: [{ order_id: placed.orderId, external_id: placed.externalId, status: placed.status, total: placed.record.total ?? null }],
    spent: spentText(desk),
  });
}

function placedList(ctx: Context, desk: OrderDesk, planId: string, result: ListResult) {
  const orders = result.outcomes.map((o) => ({ ...o, recipients: o.rows.length }));
  const tally = (status: ListOutcome['status']) => result.outcomes.filter((o) => o.status === status).length;
  const line = `${tally('created')} created, ${tally('existing')} existing, ${tally('refused')} refused (run id ${result.plan.runId})`;
  ctx.io.err(line);
  const status = tally('refused') > 0 ? 'partly refused' : tally('created') > 0 ? 'created' : 'existing';
  return answer(ctx, line, { plan_id: planId, status, orders, spent: spentText(desk) });
}

/** The recipients file's content, to tell the file placed is the file planned. */
async function hashOf(path: string): Promise<string> {
  return createHash('sha256').update(await readRegularFile(path)).digest('hex');
}

function spentText(desk: OrderDesk): string | null {
  const total = desk.tally.total;
  return total === undefined ? null : shownMoney(total);
}

/** The stderr lines of `orders create` as it places one order. */
function eventLine(event: PlaceOrderEvent): string | undefined {
  switch (event.kind) {
    case 'sending':
      return event.resumed ? `finishing an earlier attempt: external id ${event.externalId}` : `external id: ${event.externalId}`;
    case 'stored otherwise':
      return `warning: created: order ${String(event.orderId)} (external id ${event.externalId}), but the service's record of it is not what was sent (${event.difference})`;
    case 'found':
      return event.via === 'lost answer' ? `created: order ${String(event.orderId)} (external id ${event.externalId}); the answer was lost, and a look-up found the order it made` : undefined;
  }
}

/** What placing says on stderr: an order's lines, or a list's. */
function sayPlacing(ctx: Context, event: CreateEvent): void {
  if (event.kind === 'run' || event.kind === 'batch') return listLine(ctx, event);
  if (event.kind === 'priced' || event.kind === 'planned') return;
  const line = eventLine(event);
  if (line !== undefined) ctx.io.err(line);
}

/** The stderr lines of `orders create --recipients` as it places a list. */
function listLine(ctx: Context, event: ListEvent): void {
  if (event.kind === 'run') return ctx.io.err(`run id: ${event.plan.runId}`);
  const o = event.outcome;
  const label = o.batch === null || o.batch === 0 ? `external id ${o.external_id} (${describeRows(o.rows)})` : `batch ${o.batch} (${o.external_id}, ${describeRows(o.rows)})`;
  const status = o.status === 'refused' ? `refused: ${o.error ?? ''}` : `${o.status === 'existing' ? 'already created' : 'created'}: order ${String(o.order_id)}`;
  ctx.io.err(singleLine(`${label}: ${status}`));
}

function itemOf(item: z.infer<typeof ITEM>, i: number): ItemInput {
  const product = exactIntegerOf(String(item.product).trim());
  if (product === undefined || product <= 0) throw new UsageError(`items[${i}].product: expected a product id`);
  return { product, ...(item.quantity === undefined ? {} : { quantity: item.quantity }), attributes: item.attributes ?? {} };
}

/** Inline recipients as the CSV a recipients list is read from: every key a column. */
function csvOf(rows: readonly Record<string, string>[]): string {
  if (rows.length === 0) throw new UsageError('recipients: give at least one');
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: string | undefined) => `"${(v ?? '').replace(/"/g, '""')}"`;
  return [columns.map(cell).join(','), ...rows.map((r) => columns.map((c) => cell(r[c])).join(','))].join('\r\n') + '\r\n';
}

function missingWords(missing: readonly MissingPiece[]): string {
  return missing
    .map((m) => {
      if ('item' in m) return `items[${m.item}].${m.piece}`;
      return m.piece === 'line items' ? 'items' : 'a recipient';
    })
    .join('; ');
}
