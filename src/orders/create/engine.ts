import type { OrderRequest } from '../../contract/order-request.js';
import { readRegularFile } from '../../lib/safe-files.js';
import { BuildError, type OrderPieces } from './builder.js';
import { OrderIncomplete, PlacingStopped, PlanChanged } from './errors.js';
import { plan as planSend } from './exactly-once.js';
import { identityOfBody, shipmentDigests } from './order-identity.js';
import { legacyKey, OrderJournal, withoutExternalId } from './order-journal.js';
import { placeBatches } from './place-batches.js';
import { offeringsOf, placeOrder, type PlacedOrder, type PlaceOrderEvent } from './place-order.js';
import { planBatches, type ListEvent, type ListPlan, type ListPorts, type ListResult, type ListRun } from './plan-batches.js';
import { pricePlan, type PricedPlan } from './plan.js';
import type { CreatePorts, RunAccount } from './ports.js';
import { AccountLookups, prepareOrder, type PreparedOrder } from './prepare.js';
import { parseRecipientsCsv } from './recipients-csv.js';

/**
 * `orders create`'s one entry: a plain request in, the whole use case run (the order built
 * and checked, priced, matched with earlier orders, confirmed through a port, placed exactly
 * once and journalled), typed events out as it goes, and a plain outcome back. The command
 * (src/commands/orders/create/) turns flags, a file or the wizard into the request and renders
 * the events and the outcome; `merch mcp` (place_order) calls the same entry with its own
 * ports. One order: place-order.ts; a recipients list: plan-batches.ts and place-batches.ts.
 */

export interface CreateRequest {
  /** What to order, for whom and how to pay (flags, a file, a tool's arguments); `externalId` is the order's, or a list's run id. */
  pieces: OrderPieces;
  /** A recipients list, its rows the recipients: the file read, and its name in messages (as the user typed it). */
  recipients?: { path: string; file: string };
  /** Everything checked, planned and priced; nothing sent. */
  dryRun?: boolean;
  /** A list in orders of at most this many rows. */
  batchSize?: number;
  /** Batches sent at once. */
  concurrency?: number;
  /** `--assume-unsent`: a person has checked that what merch cannot show is in no earlier order was not sent. */
  assumeUnsent?: boolean;
  /** The directory of this machine's order journal. */
  journalDir: string;
  /** Place only what was planned earlier (`merch mcp`'s plan_order): its external id (a list's run id) and, of one order, the body's hash. */
  planned?: { externalId: string; bodyHash?: string };
}

/** An order's request as it is sent: its external id is always there. */
export type PlannedRequest = OrderRequest & { external_id: string };

/** What the confirmation port is asked about: one order as priced, or a list's plan. */
export type CreateQuestion = { kind: 'order'; order: PreparedOrder; priced: PricedPlan } | { kind: 'list'; plan: ListPlan; run: ListRun };

export type CreateEvent =
  /** One order, built, checked and priced (its warnings, its payment method). */
  | { kind: 'priced'; order: PreparedOrder; priced: PricedPlan }
  /** One order's request as it would be sent, its external id known. */
  | { kind: 'planned'; request: PlannedRequest }
  | PlaceOrderEvent
  | ListEvent;

export type CreateOutcome =
  /** A dry run of one order: the request it would send (external id included), and the hash a later placing checks. */
  | { kind: 'order planned'; request: PlannedRequest; order: PreparedOrder; priced: PricedPlan; bodyHash: string }
  | { kind: 'order placed'; placed: PlacedOrder }
  | { kind: 'list planned'; plan: ListPlan; run: ListRun }
  | { kind: 'list placed'; result: ListResult };

export type CreateOrdersPorts = CreatePorts<CreateQuestion>;

export async function createOrders(request: CreateRequest, ports: CreateOrdersPorts, events: (event: CreateEvent) => void): Promise<CreateOutcome> {
  return request.recipients === undefined ? createOne(request, ports, events) : createList(request, request.recipients, ports, events);
}

async function createOne(request: CreateRequest, ports: CreateOrdersPorts, events: (event: CreateEvent) => void): Promise<CreateOutcome> {
  const account = new AccountLookups(ports.account);
  const order = await prepare(request.pieces, account, ports.complete);
  const priced = pricePlan(order.body, order.products);
  events({ kind: 'priced', order, priced });
  const { scope, legacy } = await ports.scope();
  const journal = await OrderJournal.open(request.journalDir);
  try {
    const body = withoutExternalId(order.body);
    const offerings = offeringsOf(order.products);
    const p = planSend(journal, body, { ...identityOfBody(scope, body, offerings), legacyKey: legacyKey(body, legacy) }, order.body.external_id);
    const { planned } = request;
    if (planned?.bodyHash !== undefined && p.bodyHash(planned.externalId) !== planned.bodyHash) {
      throw new PlanChanged("the order is no longer what was planned (the account's products or payment methods changed)");
    }
    const whole = { ...order.body, external_id: p.externalId };
    events({ kind: 'planned', request: whole });
    if (request.dryRun) return { kind: 'order planned', request: whole, order, priced, bodyHash: p.bodyHash(p.externalId) };
    const { confirm } = ports;
    const placed = await placeOrder({ body, products: order.products, journalled: { shipment_digests: shipmentDigests(body, offerings).hexAll() }, assumeUnsent: request.assumeUnsent === true }, p, {
      api: ports.orders,
      journal,
      ...(confirm ? { confirm: () => confirm({ kind: 'order', order, priced }) } : {}),
      notify: events,
    });
    return { kind: 'order placed', placed };
  } finally {
    await journal.close();
  }
}

/** The order from its pieces, completed (the wizard) when pieces are missing and the ports can complete it. */
async function prepare(pieces: OrderPieces, account: AccountLookups, complete: CreateOrdersPorts['complete']): Promise<PreparedOrder> {
  const first = await prepareOrder(pieces, account);
  if (first.complete) return first.order;
  if (!complete) throw new OrderIncomplete(first.missing, false);
  // What the first preparation fetched, and what the wizard reads, is not fetched again.
  const completed = await prepareOrder(await complete(pieces, account), account);
  if (!completed.complete) throw new OrderIncomplete(completed.missing, true);
  return completed.order;
}

async function createList(request: CreateRequest, list: { path: string; file: string }, ports: CreateOrdersPorts, events: (event: CreateEvent) => void): Promise<CreateOutcome> {
  const { scope } = await ports.scope();
  const account = new AccountLookups(ports.account);
  const run: ListRun = { pieces: request.pieces, ...list, batchSize: request.batchSize, scope, runId: request.pieces.externalId, assumeUnsent: request.assumeUnsent === true };
  const journal = await OrderJournal.open(request.journalDir);
  const { confirm } = ports;
  const listPorts = (whole: ListRun): ListPorts => ({
    api: ports.orders,
    journal,
    lookups: account,
    notify: events,
    signal: ports.signal,
    results: ports.results,
    confirm: async (plan) => {
      checkRunId(request.planned, plan.runId);
      return confirm ? confirm({ kind: 'list', plan, run: whole }) : true;
    },
  });
  const attempt = async (whole: ListRun): Promise<CreateOutcome> => {
    const listed = listPorts(whole);
    if (request.dryRun) {
      const { decided: _d, held: _h, rows: _r, ...plan } = await planBatches(whole, listed);
      return { kind: 'list planned', plan, run: whole };
    }
    return { kind: 'list placed', result: await placeBatches(whole, listed, { concurrency: request.concurrency ?? 1 }) };
  };
  try {
    try {
      return await attempt(run);
    } catch (err) {
      // Ctrl-C while the list was read and planned (plan-batches.ts): stopped there, nothing sent.
      if (ports.signal?.aborted && (err as Error | undefined)?.name === 'AbortError') throw new PlacingStopped(`interrupted while reading ${run.file}: nothing was sent`);
      // A list whose rows name no product: the order's other pieces completed (the wizard; the list's rows are the recipients); nothing was sent yet.
      if (!(err instanceof BuildError) || err.problem !== 'row-without-product' || !ports.complete) throw err;
      return await attempt({ ...run, pieces: await completeList(run, account, ports.complete) });
    }
  } finally {
    await journal.close();
  }
}

/** The pieces of a list's order completed, the list's rows being the recipients. */
async function completeList(run: ListRun, account: RunAccount, complete: NonNullable<CreateOrdersPorts['complete']>): Promise<OrderPieces> {
  const recipients = parseRecipientsCsv(await readRegularFile(run.path), run.file);
  const { recipients: _given, ...pieces } = await complete({ ...run.pieces, recipients }, account);
  return pieces;
}

/** A list placed as planned has the run id it was planned with: its rows are the same. */
function checkRunId(planned: CreateRequest['planned'], runId: string): void {
  if (planned !== undefined && planned.externalId !== runId) throw new PlanChanged(`the list is no longer what was planned (its run id is now ${runId}, not ${planned.externalId})`);
}
