import { createHash } from 'node:crypto';
import { ApiError } from '../../api/errors.js';
import type { PaymentMethod } from '../../api/schemas.js';
import { sum, type Money } from '../../contract/money.js';
import type { OrderRequest } from '../../contract/order-request.js';
import { listBase, rowItem, type OrderPieces } from './builder.js';
import { Digests, matchDigests } from './content-digests.js';
import { findHeld, type Held } from './earlier-orders.js';
import { ExternalIdTaken, PlacingStopped, RecordIncomparable, RunInDoubt } from './errors.js';
import { plan as planSend, uuidOfHash } from './exactly-once.js';
import { recordContent, requestContent, shipmentContent, shipmentKey, type Offerings } from './order-content.js';
import { offeringsOf, placeOrder, type PlacedOrder } from './place-order.js';
import { pricePlan, type PricedPlan } from './plan.js';
import type { PlacePorts } from './ports.js';
import { AccountLookups, prepareOrder, type PreparedOrder } from './prepare.js';
import { readRecipientBatches, type RecipientRow, type RecipientsCsv } from './recipients-csv.js';
import type { ResultRow } from './results-file.js';
import type { ValidationIssue } from './validate.js';
import { count } from '../../lib/count.js';
import { withoutExternalId } from './order-journal.js';

/**
 * Placing a recipients list (`orders create --recipients FILE`, in batches with
 * `--batch-size N` or as one order), exactly once per recipient row, on any machine, however
 * the list is cut (issue 18.2). The unit of intent is the row, not the batch:
 *
 * 1. The run's id is `--external-id`, else derived from the list's rows and the order's
 *    other pieces and its target: never from the batch size or the concurrency. Its orders
 *    are `<run id>` (the list as one order) and `<run id>-<k>` (batch k).
 * 2. The run's earlier orders are read from the service (every order of the account whose
 *    external id is the run's: the journal cannot know what another machine sent), and each
 *    of their shipping orders is matched to a row of the list by content (recipient and
 *    items, order-content.ts), one shipping order per row.
 * 3. Only the rows no earlier order holds are sent, in new orders of at most N rows,
 *    numbered after the highest k in use. Shipping orders of earlier orders that no row of
 *    the list matches (rows removed from the list) are left alone, and said so.
 * 4. Each new order is placed exactly once (place-order.ts): journalled, sent, and a
 *    duplicate answer compared with the service's order.
 *
 * The list is read as a stream, three times (to find its rows' contents, to check the rows
 * to send, to send them), so memory holds a digest per row, not the rows. A list sent as one
 * order is read once: its rows are kept from pass one, since the order's body holds them all
 * anyway, and the order checked in planning is the one sent.
 */

export interface ListRun {
  /** The order's pieces from flags or a file; the recipients come from the list. */
  pieces: OrderPieces;
  /** The list file to read, and its name in messages (as the user typed it). */
  path: string;
  file: string;
  /** Orders of at most this many rows; undefined: the rows to send go in one order. */
  batchSize?: number;
  /** Where the orders go (base URL and account): part of a derived run id. */
  scope: string;
  /** `--external-id`: the run's id, instead of one derived from the list. */
  runId?: string;
  /** The list's path as the journal remembers it (absolute), to name an earlier run of the same file. */
  listPath?: string;
  /** `--assume-unsent`: a person has checked that the rows merch cannot place in an earlier order were not sent (earlier-orders.ts). */
  assumeUnsent?: boolean;
}

export interface PlannedBatch {
  /** k of `<run id>-<k>`; 0 for the run id itself. */
  batch: number;
  external_id: string;
  /** Its rows, by their spreadsheet row numbers (the header is row 1), as the list's errors name them. */
  rows: number[];
  shipments: number;
  subtotal: Money | null;
}

/** An earlier order of the run and the rows of the list it holds. */
export interface EarlierOrder {
  batch: number;
  external_id: string;
  order_id: number | string;
  rows: number[];
  /** Its shipping orders that no row of the list matches (rows since removed from the list). */
  unlisted: number;
}

export interface ListPlan {
  runId: string;
  /** `given` (--external-id) or `derived` from the list. */
  origin: 'given' | 'derived';
  /** A different run the journal knows for this list file (the list was edited since). */
  earlierRunOfList?: string;
  /** Data rows in the list. */
  recipients: number;
  earlier: EarlierOrder[];
  batches: PlannedBatch[];
  /** The subtotal of the orders to place; null when a price is unknown. */
  subtotal: Money | null;
  paymentMethod?: PaymentMethod;
  paymentIsDefault: boolean;
  warnings: ValidationIssue[];
  planWarnings: string[];
  /** The list sent as one order (no batch size): that order, as checked, and its priced plan. */
  single?: { order: PreparedOrder; priced: PricedPlan };
}

export type ListStatus = 'created' | 'existing' | 'refused';

export interface ListOutcome {
  batch: number;
  external_id: string;
  order_id?: number | string;
  status: ListStatus;
  rows: number[];
  /** Of an existing order: its shipping orders no row of the list holds. */
  unlisted?: number;
  error?: string;
}

export interface ListResult {
  plan: ListPlan;
  /** The earlier orders (existing), then the new ones in batch order. */
  outcomes: ListOutcome[];
  /** The run stopped before every batch was sent (`signal` aborted): the rest are not in `outcomes`. */
  stopped: boolean;
}

export type ListEvent =
  /** The run's id is known; the earlier orders are being looked for. */
  | { kind: 'run'; plan: Pick<ListPlan, 'runId' | 'origin' | 'earlierRunOfList'> }
  /** A batch was placed, found, or refused. */
  | { kind: 'batch'; outcome: ListOutcome; of: number };

export interface ListPorts extends PlacePorts<ListPlan, ListEvent> {
  /** The account's payment methods and products, each fetched once. */
  lookups: AccountLookups;
  /** Where each row's result goes (`--results`), as the run learns it. */
  results?: { append(rows: readonly ResultRow[]): Promise<void> };
  /** Aborted: no new batch starts; those in flight finish. */
  signal?: AbortSignal;
}

/** Rows read at a time while the list is only looked at (its rows' contents). */
const READ_CHUNK = 1_000;

/** Everything checked and planned, nothing sent. */
export async function planBatches(run: ListRun, ports: Omit<ListPorts, 'confirm'>): Promise<ListPlan & { decided: Decided; held: Held; rows: ListRows }> {
  const read = await readList(run, ports.lookups);
  const runId = run.runId ?? read.derivedRunId;
  const listKey = run.listPath === undefined ? undefined : listKeyOf(run.scope, run.listPath);
  // Only a derived id can mean an edited list: a given one is a run the user chose.
  const known = listKey === undefined || run.runId !== undefined ? undefined : ports.journal.runOfList(listKey);
  const head = { runId, origin: run.runId === undefined ? ('derived' as const) : ('given' as const), ...(known !== undefined && known !== runId ? { earlierRunOfList: known } : {}) };
  ports.notify?.({ kind: 'run', plan: head });
  const held = await findHeld(runId, { api: ports.api, journal: ports.journal, offerings: (ids) => offeringsFor(ports.lookups, ids) }, run.assumeUnsent);
  const decided = decide(read, held);
  if (!run.assumeUnsent) refuseUnmatched(run, decided, held);
  const batches = await checkBatches(run, runId, decided.toSend, held.maxBatch, ports.lookups, read.kept);
  const subtotals = batches.batches.map((b) => b.subtotal);
  return {
    ...head,
    recipients: read.digests.length,
    earlier: held.orders.map((o, i) => ({ batch: o.batch, external_id: o.externalId, order_id: o.orderId, rows: decided.rowsOf[i]!, unlisted: o.count - decided.rowsOf[i]!.length })),
    batches: batches.batches,
    subtotal: subtotals.every((s): s is Money => s !== null) ? (sum(subtotals) ?? null) : null,
    paymentMethod: batches.paymentMethod,
    paymentIsDefault: batches.paymentIsDefault,
    warnings: batches.warnings,
    planWarnings: batches.planWarnings,
    ...(batches.single ? { single: batches.single } : {}),
    decided,
    held,
    rows: { digests: read.digests, sheetRows: read.sheetRows, kept: read.kept },
  };
}

/**
 * A shipping order of the run's earlier orders that no row matches, while rows are left to
 * send, may be one of them stored in a way the matching does not see: the run stops rather
 * than send that row again. (With no row left to send, it is a row since removed from the
 * list, and is said so.)
 */
function refuseUnmatched(run: ListRun, decided: Decided, held: Held): void {
  if (decided.toSend.length === 0) return;
  const taken = new Uint8Array(held.shipments.ids.length);
  for (const found of decided.matched) if (found >= 0) taken[found] = 1;
  const free = taken.indexOf(0);
  if (free < 0) return;
  const order = held.orders[held.shipments.order[free]!]!;
  const id = held.shipments.ids[free];
  throw new RunInDoubt(
    'shipment',
    `${id === undefined ? `a shipping order` : `shipping order ${String(id)}`} of order ${String(order.orderId)} (external id ${order.externalId}) of this run matches no row of ${run.file}, while ${count(decided.toSend.length, 'row')} would be sent: it may hold one of them, stored otherwise; nothing was sent`,
    order.orderId,
  );
}

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

interface ReadList {
  /** A digest of each row's content (recipient and items), in list order. */
  digests: Digests;
  /** Each row's spreadsheet row number (header = 1; blank rows are skipped, so these can jump), in list order. */
  sheetRows: number[];
  derivedRunId: string;
  /** The rows themselves, when the list goes as one order (whose body holds them all anyway): not read again. */
  kept?: RecipientsCsv[];
}

/** Pass one: each row's content, and the run id the list and the pieces derive. */
async function readList(run: ListRun, lookups: AccountLookups): Promise<ReadList> {
  const digests = new Digests();
  const sheetRows: number[] = [];
  const identity = createHash('sha256');
  const { recipients: _r, origins: _o, fileName: _f, externalId: _e, ...flags } = run.pieces;
  identity.update(`${run.scope}\n${JSON.stringify(flags)}\n`);
  const base = listBase(run.pieces, run.file);
  const kept: RecipientsCsv[] | undefined = run.batchSize === undefined ? [] : undefined;
  for await (const chunk of readRecipientBatches(run.path, run.file, READ_CHUNK)) {
    kept?.push(chunk);
    // Each row as the shipping order it makes (not validated: what it asks for, to match and to tell apart).
    const items = chunk.rows.map((row) => rowItem(chunk, row, base));
    const offerings = await offeringsFor(lookups, items.map((item) => item.product));
    chunk.rows.forEach((row, i) => {
      digests.push(shipmentKey(shipmentContent(row.recipient, [items[i]!], offerings)));
      sheetRows.push(row.row);
      identity.update(`${rowIdentity(row)}\n`);
    });
  }
  return { digests, sheetRows, derivedRunId: uuidOfHash(identity.digest('hex')), kept };
}

/** A row as it counts for the run's identity: its values, not how the file spells its columns or lines. */
function rowIdentity(row: RecipientRow): string {
  return JSON.stringify([row.recipient, row.attributes, row.quantity ?? null, row.product ?? null]);
}

/** The offered attributes of the products named (ids as numbers or numeric strings, as a service may give them). */
async function offeringsFor(lookups: AccountLookups, ids: readonly unknown[]): Promise<Offerings> {
  const numbers = ids.map((id) => (typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id));
  const products = await lookups.products([...new Set(numbers.filter((id): id is number => typeof id === 'number' && Number.isInteger(id) && id > 0))]);
  return offeringsOf(products);
}

/** The journal's name for a list file: a hash of the target and the file's path. */
function listKeyOf(scope: string, path: string): string {
  return createHash('sha256').update(`${scope}\n${path}`).digest('hex').slice(0, 32);
}

/** The list's rows as the run knows them after pass one: each one's content, and its spreadsheet row number. */
interface ListRows {
  digests: Digests;
  sheetRows: number[];
  /** The rows themselves when pass one kept them (the list as one order). */
  kept?: readonly RecipientsCsv[];
}

interface Decided {
  /** Per row (list order): the index in `held.shipments` of the shipping order that holds it, or -1: to send. */
  matched: Int32Array;
  /** The rows no earlier order holds (spreadsheet rows), in list order. */
  toSend: number[];
  /** Per earlier order: the rows it holds (spreadsheet rows). */
  rowsOf: number[][];
}

/** Each row matched to a shipping order of an earlier order with the same content, one shipping order per row, the first order first. */
function decide(rows: ListRows, held: Held): Decided {
  const matched = matchDigests(rows.digests, held.shipments.digests);
  const toSend: number[] = [];
  const rowsOf: number[][] = held.orders.map(() => []);
  matched.forEach((found, i) => {
    if (found < 0) toSend.push(rows.sheetRows[i]!);
    else rowsOf[held.shipments.order[found]!]!.push(rows.sheetRows[i]!);
  });
  return { matched, toSend, rowsOf };
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

/** The content digest of the row with this spreadsheet row number (`sheetRows` ascends: a binary search). */
function digestOfRow(rows: ListRows, sheetRow: number): string {
  let low = 0;
  let high = rows.sheetRows.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (rows.sheetRows[middle]! < sheetRow) low = middle + 1;
    else high = middle;
  }
  return rows.digests.hex(low);
}

/** The rows to send, cut into batches numbered after the highest k in use (the run id itself for a first, unbatched send). */
function cutBatches(run: ListRun, runId: string, toSend: readonly number[], maxBatch: number): { batch: number; external_id: string; rows: number[] }[] {
  if (toSend.length === 0) return [];
  if (run.batchSize === undefined) {
    const batch = maxBatch < 0 ? 0 : maxBatch + 1;
    return [{ batch, external_id: batch === 0 ? runId : `${runId}-${batch}`, rows: [...toSend] }];
  }
  const cut: { batch: number; external_id: string; rows: number[] }[] = [];
  for (let i = 0, k = Math.max(0, maxBatch) + 1; i < toSend.length; i += run.batchSize, k++) {
    cut.push({ batch: k, external_id: `${runId}-${k}`, rows: toSend.slice(i, i + run.batchSize) });
  }
  return cut;
}

/**
 * The list's rows of each batch, in batch order, read from the stream (or from the rows pass
 * one kept). The batches cut the rows to send in file order, so one walk fills them: a batch
 * is complete when its last row is read.
 */
async function* rowsOfBatches(run: ListRun, batches: readonly { rows: number[] }[], kept?: readonly RecipientsCsv[]): AsyncGenerator<{ index: number; csv: RecipientsCsv }> {
  if (batches.length === 0) return;
  let index = 0;
  let rows: RecipientRow[] = [];
  for await (const chunk of kept ?? readRecipientBatches(run.path, run.file, READ_CHUNK)) {
    for (const row of chunk.rows) {
      const batch = batches[index]!;
      if (row.row !== batch.rows[rows.length]) continue;
      rows.push(row);
      if (rows.length < batch.rows.length) continue;
      yield { index, csv: { ...chunk, rows } };
      rows = [];
      if (++index === batches.length) return;
    }
  }
}

/** Pass three (checking): every batch to send built and validated; nothing is sent. */
async function checkBatches(run: ListRun, runId: string, toSend: readonly number[], maxBatch: number, lookups: AccountLookups, kept?: readonly RecipientsCsv[]) {
  const cut = cutBatches(run, runId, toSend, maxBatch);
  const batches: PlannedBatch[] = [];
  const warnings: ValidationIssue[] = [];
  const planWarnings = new Set<string>();
  let paymentMethod: PaymentMethod | undefined;
  let paymentIsDefault = false;
  let single: { order: PreparedOrder; priced: PricedPlan } | undefined;
  for await (const { index, csv } of rowsOfBatches(run, cut, kept)) {
    const order = await prepareBatch(run, csv, lookups);
    const priced = pricePlan(order.body, order.products);
    if (run.batchSize === undefined) single = { order: { ...order, body: { ...order.body, external_id: cut[index]!.external_id } }, priced };
    batches.push({ ...cut[index]!, shipments: priced.shipments, subtotal: priced.subtotal });
    if (warnings.length < 100) warnings.push(...order.warnings);
    for (const w of priced.warnings) planWarnings.add(w);
    paymentMethod = order.paymentMethod;
    paymentIsDefault = order.paymentIsDefault;
  }
  return { batches, warnings, planWarnings: [...planWarnings], paymentMethod, paymentIsDefault, single };
}

async function prepareBatch(run: ListRun, csv: RecipientsCsv, lookups: AccountLookups) {
  const prepared = await prepareOrder(lookups.client, { ...run.pieces, recipients: csv }, lookups);
  // The list's rows and the pieces were whole when the list was read: only a rule can fail here.
  if (!prepared.complete) throw new Error(`a batch of ${run.file} lacks ${prepared.missing.map((m) => m.piece).join(', ')}`);
  return prepared.order;
}

/** Pass three (sending): the planned batches placed, `concurrency` at a time, in batch order. */
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
  outcomes.sort((a, b) => a.batch - b.batch);
  return { outcomes, failure, stopped: stopped && outcomes.length < plan.batches.length };
}

/** One batch, exactly once; its rows' results written. A refusal is its outcome; an unknown outcome is thrown. */
async function placeBatch(run: ListRun, runId: string, batch: PlannedBatch, csv: RecipientsCsv, ports: ListPorts, sending: Sending): Promise<ListOutcome> {
  const base = { batch: batch.batch, external_id: batch.external_id, rows: batch.rows };
  const order = sending.checked ?? (await prepareBatch(run, csv, ports.lookups));
  const body = withoutExternalId(order.body);
  const p = planSend(ports.journal, body, run.scope, batch.external_id);
  const list = run.listPath === undefined ? {} : { list: listKeyOf(run.scope, run.listPath) };
  let placed: PlacedOrder;
  try {
    const shipments = batch.rows.map((row) => digestOfRow(sending.rows, row));
    const journalled = { run_id: runId, ...list, shipments };
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
