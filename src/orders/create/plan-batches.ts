import type { PaymentMethod } from '../../api/schemas.js';
import { sum, type Money } from '../../contract/money.js';
import { count } from '../../lib/count.js';
import { listBase, rowItem, rowProduct, type OrderPieces } from './builder.js';
import { Digests, matchDigests } from './content-digests.js';
import { findHeld, type Held, type WantedRows } from './earlier-orders.js';
import { RunInDoubt } from './errors.js';
import { identityOfShipments } from './order-identity.js';
import { shipmentContent, shipmentKey, type Offerings } from './order-content.js';
import { offeringsOf } from './place-order.js';
import { pricePlan, type PricedPlan } from './plan.js';
import type { PlacePorts, ResultsSink } from './ports.js';
import { AccountLookups, prepareOrder, type PreparedOrder } from './prepare.js';
import { readRecipientBatches, type RecipientRow, type RecipientsCsv } from './recipients-csv.js';
import type { ValidationIssue } from './validate.js';
import { exactIntegerOf } from '../../lib/exact-json.js';

/**
 * A recipients list as a run (`orders create --recipients FILE`, in batches with
 * `--batch-size N` or as one order), planned: exactly once per recipient row, on any machine,
 * however the list is cut (issues 18.2 and 28). The unit of intent is the row, not the batch:
 *
 * 1. The run's id is `--external-id`, else derived from the contents of the list's rows and
 *    the account (order-identity.ts: the same function as a single order's external id),
 *    never from the batch size, the payment method or how the file spells its rows. Its
 *    orders are `<run id>` (the list as one order) and `<run id>-<k>` (batch k).
 * 2. The earlier orders are read from the service, with this machine's journal as evidence
 *    (earlier-orders.ts): the run's, and, for a derived run id, every order of the account
 *    that holds a row of the list. Each of their shipping orders is matched to a row of the
 *    list by content (recipient and items, order-content.ts), one shipping order per row.
 *    Where that cannot be told, nothing of the run is sent (RunInDoubt).
 * 3. Only the rows no earlier order holds are sent, in new orders of at most N rows,
 *    numbered after the highest k in use (sending them: place-batches.ts).
 *
 * The list is read as a stream, three times (to find its rows' contents, to check the rows
 * to send, to send them), so memory holds a digest per row, not the rows. A list sent as one
 * order is read once: its rows are kept from pass one, since the order's body holds them all
 * anyway, and the order checked in planning is the one sent. Rows are named by their
 * spreadsheet row numbers (the header is row 1), as every message about a list names them.
 */

export interface ListRun {
  /** The order's pieces from flags or a file; the recipients come from the list. */
  pieces: OrderPieces;
  /** The list file to read, and its name in messages (as the user typed it). */
  path: string;
  file: string;
  /** Orders of at most this many rows; undefined: the rows to send go in one order. */
  batchSize?: number;
  /** Where the orders go (the service's origin and account: order-identity.ts): part of a derived run id. */
  scope: string;
  /** `--external-id`: the run's id, instead of one derived from the list. */
  runId?: string;
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

/** An earlier order (the run's, or another of the account's) and the rows of the list it holds. */
export interface EarlierOrder {
  /** k of the run's `<run id>-<k>`; null for another order of the account. */
  batch: number | null;
  external_id: string;
  order_id: number | bigint | string;
  rows: number[];
  /** Its shipping orders that no row of the list matches (rows since removed from the list). */
  unlisted: number;
}

export interface ListPlan {
  runId: string;
  /** `given` (--external-id) or `derived` from the list. */
  origin: 'given' | 'derived';
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
  /** As EarlierOrder's: null for an order of the account that is not the run's. */
  batch: number | null;
  external_id: string;
  order_id?: number | bigint | string;
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
  | { kind: 'run'; plan: Pick<ListPlan, 'runId' | 'origin'> }
  /** A batch was placed, found, or refused. */
  | { kind: 'batch'; outcome: ListOutcome; of: number };

export interface ListPorts extends PlacePorts<ListPlan, ListEvent> {
  /** The account's payment methods and products, each fetched once. */
  lookups: AccountLookups;
  /** Where each row's result goes (`--results`), as the run learns it. */
  results?: ResultsSink;
  /** Aborted: no new batch starts; those in flight finish. */
  signal?: AbortSignal;
}

/** Rows read at a time while the list is only looked at (its rows' contents). */
const READ_CHUNK = 1_000;

/** Everything checked and planned, nothing sent. */
export async function planBatches(run: ListRun, ports: Omit<ListPorts, 'confirm'>): Promise<ListPlan & { decided: Decided; held: Held; rows: ListRows }> {
  const read = await readList(run, ports.lookups, ports.signal);
  const runId = run.runId ?? read.derivedRunId;
  const head = { runId, origin: run.runId === undefined ? ('derived' as const) : ('given' as const) };
  ports.notify?.({ kind: 'run', plan: head });
  // A row is the unit of intent: a derived run also counts the account's other orders that
  // hold its rows; a run named by --external-id counts its own orders only.
  const accountWide: WantedRows | undefined = run.runId === undefined ? { digests: read.digests, products: read.products } : undefined;
  const held = await findHeld(runId, { api: ports.api, journal: ports.journal, offerings: (ids) => offeringsFor(ports.lookups, ids) }, { assumeUnsent: run.assumeUnsent, accountWide });
  const rows: ListRows = { digests: read.digests, sheetRows: read.sheetRows, kept: read.kept };
  const decided = decide(rows, held);
  if (!run.assumeUnsent) refuseUnmatched(run, decided, held);
  // Stopped while the earlier orders were read: not on to pass three (which reads the list again).
  ports.signal?.throwIfAborted();
  const batches = await checkBatches(run, runId, decided.toSend, held.maxBatch, ports.lookups, read.kept);
  const subtotals = batches.batches.map((b) => b.subtotal);
  return {
    ...head,
    recipients: read.sheetRows.length,
    earlier: held.orders.map((o, i) => ({ batch: o.batch, external_id: o.externalId, order_id: o.orderId, rows: decided.rowsOf[i]!, unlisted: o.batch === null ? 0 : o.count - decided.rowsOf[i]!.length })),
    batches: batches.batches,
    subtotal: subtotals.every((s): s is Money => s !== null) ? (sum(subtotals) ?? null) : null,
    paymentMethod: batches.paymentMethod,
    paymentIsDefault: batches.paymentIsDefault,
    warnings: batches.warnings,
    planWarnings: batches.planWarnings,
    ...(batches.single ? { single: batches.single } : {}),
    decided,
    held,
    rows,
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
  // The account's other orders hold other people too: only the run's own shipping orders count.
  const taken = new Uint8Array(held.shipments.ids.length);
  held.shipments.order.forEach((order, s) => void (held.orders[order]!.batch === null && (taken[s] = 1)));
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

interface ReadList {
  /** A digest of each row's content (recipient and items), in list order. */
  digests: Digests;
  /** The products the rows order, as text. */
  products: Set<string>;
  /** Each row's spreadsheet row number (header = 1; blank rows are skipped, so these can jump), in list order. */
  sheetRows: number[];
  derivedRunId: string;
  /** The rows themselves, when the list goes as one order (whose body holds them all anyway): not read again. */
  kept?: RecipientsCsv[];
}

/** Pass one: each row's content, and the run id the rows' contents derive (order-identity.ts). */
async function readList(run: ListRun, lookups: AccountLookups, signal?: AbortSignal): Promise<ReadList> {
  const sheetRows: number[] = [];
  const products = new Set<string>();
  const base = listBase(run.pieces, run.file);
  const kept: RecipientsCsv[] | undefined = run.batchSize === undefined ? [] : undefined;
  const digests = new Digests();
  for await (const chunk of readRecipientBatches(run.path, run.file, READ_CHUNK, signal)) {
    // Each row's product looked up (a row that names no product stops the run here), and its content taken.
    kept?.push(chunk);
    for (const row of chunk.rows) {
      sheetRows.push(row.row);
      products.add(String(rowProduct(chunk, row, base)));
    }
    digests.append(await rowDigests(run, [chunk], lookups));
  }
  return { digests, products, sheetRows, derivedRunId: identityOfShipments(run.scope, digests).externalId, kept };
}

/**
 * The content digests of these rows, in order: each row as the shipping order it asks for
 * (not validated: what it asks for, to match and to tell apart). Taken of a streamed list
 * as it is read, of a kept list when the run's earlier orders are matched, and of a batch
 * whose digests planning did not take when the journal records it.
 */
export async function rowDigests(run: ListRun, csvs: Iterable<RecipientsCsv>, lookups: AccountLookups): Promise<Digests> {
  const base = listBase(run.pieces, run.file);
  const digests = new Digests();
  for (const csv of csvs) {
    const items = csv.rows.map((row) => rowItem(csv, row, base));
    const offerings = await offeringsFor(lookups, items.map((item) => item.product));
    csv.rows.forEach((row, i) => digests.push(shipmentKey(shipmentContent(row.recipient, [items[i]!], offerings))));
  }
  return digests;
}

/** The offered attributes of the products named (ids as numbers or numeric strings, as a service may give them). */
async function offeringsFor(lookups: AccountLookups, ids: readonly unknown[]): Promise<Offerings> {
  // Exactly: an id beyond 2^53 is a BigInt (lib/exact-json.ts), never rounded.
  const numbers = ids.map((id) => (typeof id === 'string' && /^\d+$/.test(id) ? exactIntegerOf(id) : id));
  const products = await lookups.products([...new Set(numbers.filter((id): id is number | bigint => (typeof id === 'number' && Number.isInteger(id) && id > 0) || (typeof id === 'bigint' && id > 0n)))]);
  return offeringsOf(products);
}

/** The list's rows as the run knows them after pass one: each one's content, and its spreadsheet row number. */
export interface ListRows {
  digests: Digests;
  sheetRows: number[];
  /** The rows themselves when pass one kept them (the list as one order). */
  kept?: readonly RecipientsCsv[];
}

export interface Decided {
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
export async function* rowsOfBatches(run: ListRun, batches: readonly { rows: number[] }[], kept?: readonly RecipientsCsv[]): AsyncGenerator<{ index: number; csv: RecipientsCsv }> {
  if (batches.length === 0) return;
  let index = 0;
  let rows: RecipientRow[] = [];
  for await (const chunk of kept ?? readRecipientBatches(run.path, run.file, READ_CHUNK)) {
    for (let from = 0; from < chunk.rows.length; ) {
      const batch = batches[index]!;
      from = takeRows(chunk.rows, from, batch.rows, rows);
      if (rows.length < batch.rows.length) continue;
      yield { index, csv: { ...chunk, rows } };
      rows = [];
      if (++index === batches.length) return;
    }
  }
}

/**
 * Appends to `rows` the rows of a chunk, from index `at` on, that are the batch's next
 * (`wanted`: its spreadsheet rows, in order) until the batch is complete; returns the index
 * it stopped at. A loop of its own: a loop in the generator above makes V8 compile the
 * whole generator when it gets hot.
 */
function takeRows(chunk: readonly RecipientRow[], at: number, wanted: readonly number[], rows: RecipientRow[]): number {
  let i = at;
  for (; i < chunk.length && rows.length < wanted.length; i++) {
    const row = chunk[i]!;
    if (row.row === wanted[rows.length]) rows.push(row);
  }
  return i;
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

export async function prepareBatch(run: ListRun, csv: RecipientsCsv, lookups: AccountLookups) {
  const prepared = await prepareOrder({ ...run.pieces, recipients: csv }, lookups);
  // The list's rows and the pieces were whole when the list was read: only a rule can fail here.
  if (!prepared.complete) throw new Error(`a batch of ${run.file} lacks ${prepared.missing.map((m) => m.piece).join(', ')}`);
  return prepared.order;
}

/** Pass three (sending): the planned batches placed, `concurrency` at a time, in batch order. */
