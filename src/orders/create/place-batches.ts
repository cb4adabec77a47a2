import { ApiError } from '../../api/errors.js';
import type { OrderRequest } from '../../contract/order-request.js';
import type { Held } from './earlier-orders.js';
import { ExternalIdTaken, PlacingStopped, RecordIncomparable } from './errors.js';
import { plan as planSend } from './exactly-once.js';
import { recordContent, requestContent, shipmentKey } from './order-content.js';
import { withoutExternalId } from './order-journal.js';
import { offeringsOf, placeOrder, type PlacedOrder } from './place-order.js';
import { planBatches, prepareBatch, rowsOfBatches, type Decided, type ListOutcome, type ListPlan, type ListPorts, type ListResult, type ListRows, type ListRun, type PlannedBatch } from './plan-batches.js';
import type { PreparedOrder } from './prepare.js';
import type { RecipientsCsv } from './recipients-csv.js';
import { identityOfBody } from './order-identity.js';
import type { ResultRow } from './results-file.js';

/**
 * Placing a recipients list: the run planned (plan-batches.ts), confirmed, then each new
 * order placed exactly once (place-order.ts: journalled with the content of its shipping
 * orders, looked up before any resend, a found order compared with this one), and every
 * row's result written.
 */

/**
 * The use case: plans the run (planBatches), asks `confirm`, then places the new batches,
 * `concurrency` at a time, and writes every row's result. A batch the service refuses does
 * not stop the others; an outcome left unknown (OutcomeUnknown) stops the run (the batches
 * in flight finish) and is thrown once the results of the others are written.
 */
export async function placeBatches(run: ListRun, ports: ListPorts, options: { concurrency?: number } = {}): Promise<ListResult> {
  const planned = await planBatches(run, ports);
  const { decided, held, rows, ...plan } = planned;
  if (ports.confirm && !(await ports.confirm(plan))) throw new PlacingStopped('cancelled: no order was created');
  const outcomes: ListOutcome[] = plan.earlier.map((o) => ({ batch: o.batch, external_id: o.external_id, order_id: o.order_id, status: 'existing', rows: o.rows, ...(o.unlisted > 0 ? { unlisted: o.unlisted } : {}) }));
  if (ports.results) await ports.results.append(existingResults(decided, held, rows.sheetRows));
  const sending = { checkedUnsent: held.conclusive || run.assumeUnsent === true, rows, checked: plan.single?.order };
  const placed = await sendBatches(run, plan, ports, options.concurrency ?? 1, sending);
  outcomes.push(...placed.outcomes);
  if (placed.failure !== undefined) throw placed.failure;
  return { plan, outcomes, stopped: placed.stopped };
}

/** The results of the rows earlier orders hold, with their order and shipping order. */
function existingResults(decided: Decided, held: Held, sheetRows: readonly number[]): ResultRow[] {
  const rows: ResultRow[] = [];
  decided.matched.forEach((found, i) => {
    if (found < 0) return;
    const order = held.orders[held.shipments.order[found]!]!;
    rows.push({ row: sheetRows[i]!, external_id: order.externalId, order_id: order.orderId, shipping_order_id: held.shipments.ids[found], status: 'existing' });
  });
  return rows;
}

/** The content digests of a batch's rows, for the journal (one after another), as planning took them. */
function batchDigests(batch: PlannedBatch, rows: ListRows): string {
  return batch.rows.map((row) => rows.digests.hex(indexOfRow(rows, row))).join('');
}

/** The index of the row with this spreadsheet row number (`sheetRows` ascends: a binary search). */
function indexOfRow(rows: ListRows, sheetRow: number): number {
  let low = 0;
  let high = rows.sheetRows.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (rows.sheetRows[middle]! < sheetRow) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** What sending a batch knows from planning: whether its external id is known to be free, and each row's content. */
interface Sending {
  checkedUnsent: boolean;
  rows: ListRows;
  /** The list as one order, as planning built and checked it: not built again. */
  checked?: PreparedOrder;
}

async function sendBatches(run: ListRun, plan: ListPlan, ports: ListPorts, concurrency: number, sending: Sending) {
  const outcomes: ListOutcome[] = [];
  let failure: unknown;
  let stopped = false;
  const source = rowsOfBatches(run, plan.batches, sending.rows.kept);
  let reading: Promise<unknown> = Promise.resolve();
  /** One reader of the stream at a time: each worker takes the next batch. */
  const take = () => {
    const taken = reading.then(async () => (await source.next()).value as { index: number; csv: RecipientsCsv } | undefined);
    reading = taken.catch(() => undefined);
    return taken;
  };
  const worker = async () => {
    for (;;) {
      if (failure !== undefined) return;
      if (ports.signal?.aborted) return void (stopped = true);
      const item = await take();
      if (!item) return;
      try {
        const outcome = await placeBatch(run, plan.runId, plan.batches[item.index]!, item.csv, ports, sending);
        outcomes.push(outcome);
        ports.notify?.({ kind: 'batch', outcome, of: plan.batches.length });
      } catch (err) {
        failure ??= err;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  } finally {
    await source.return(undefined);
  }
  outcomes.sort((a, b) => a.batch! - b.batch!);
  return { outcomes, failure, stopped: stopped && outcomes.length < plan.batches.length };
}

/** One batch, exactly once; its rows' results written. A refusal is its outcome; an unknown outcome is thrown. */
async function placeBatch(run: ListRun, runId: string, batch: PlannedBatch, csv: RecipientsCsv, ports: ListPorts, sending: Sending): Promise<ListOutcome> {
  const base = { batch: batch.batch, external_id: batch.external_id, rows: batch.rows };
  const order = sending.checked ?? (await prepareBatch(run, csv, ports.lookups));
  const body = withoutExternalId(order.body);
  const p = planSend(ports.journal, body, identityOfBody(run.scope, body, offeringsOf(order.products)), batch.external_id);
  let placed: PlacedOrder;
  try {
    const journalled = { run_id: runId, shipment_digests: batchDigests(batch, sending.rows) };
    placed = await placeOrder({ body, products: order.products, journalled, checkedUnsent: sending.checkedUnsent }, p, { api: ports.api, journal: ports.journal });
  } catch (err) {
    // The service refused this batch (a rule, or its external id is another order's): the others go on.
    const refusal = err instanceof ExternalIdTaken || err instanceof RecordIncomparable || (err instanceof ApiError && err.kind === 'refused');
    if (!refusal) throw err;
    const message = (err as Error).message;
    await ports.results?.append(batch.rows.map((row) => ({ row, external_id: batch.external_id, status: 'refused', error: message })));
    return { ...base, status: 'refused', error: message };
  }
  await ports.results?.append(resultsOf(batch, body, placed, order.products));
  return { ...base, order_id: placed.orderId, status: placed.status };
}

/** Each row of a placed batch with the shipping order made for it, matched by content (by position when the record cannot be read so). */
function resultsOf(batch: PlannedBatch, body: OrderRequest, placed: PlacedOrder, products: Parameters<typeof offeringsOf>[0]): ResultRow[] {
  const offerings = offeringsOf(products);
  const ours = requestContent(body, offerings).shipments.map(shipmentKey);
  const theirs = recordContent(placed.record, offerings);
  const ids = (placed.record.shipping_orders ?? []).map((so) => so.id);
  const free = new Map<string, number[]>();
  if (!('missing' in theirs)) {
    theirs.shipments.forEach((shipment, s) => {
      const key = shipmentKey(shipment);
      free.set(key, [...(free.get(key) ?? []), s]);
    });
  }
  return batch.rows.map((row, i) => {
    const s = 'missing' in theirs ? i : free.get(ours[i]!)?.shift();
    return { row, external_id: batch.external_id, order_id: placed.orderId, shipping_order_id: s === undefined ? undefined : ids[s], status: placed.status };
  });
}
