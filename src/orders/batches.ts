import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { ApiClient } from '../api/client.js';
import { getOrder } from '../api/resources/orders.js';
import type { Order } from '../api/schemas.js';
import { sum, type Money } from '../contract/money.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import type { OrderPieces } from './builder.js';
import { plan as planSend, send, uuidOfHash } from './exactly-once.js';
import type { OrderJournal } from './journal.js';
import { pricePlan } from './plan.js';
import { AccountLookups, prepareOrder, type PreparedOrder } from './prepare.js';
import { readRecipientBatches, type RecipientsCsv } from './recipients-csv.js';
import type { ResultRow, ResultsFile } from './results-file.js';
import type { ValidationIssue } from './validate.js';

/**
 * `orders create --recipients FILE --batch-size N`: the CSV in orders of at most N shipping
 * orders each, in file order. Batch k is one order whose external id is `<run id>-<k>`, the
 * run id being `--external-id` or one derived from the file's bytes, the other flags and
 * the target, so a rerun of the same command gives every batch the same id. Each batch goes
 * through the exactly-once sender and its journal, so a rerun after a crash or a refused
 * batch sends only the batches not yet created.
 *
 * The file is read as a stream, twice: first to check every batch (nothing is sent if one
 * does not pass), then to send them, `concurrency` at a time. A batch the service refuses
 * does not stop the others.
 */

export interface BatchRunOptions {
  client: ApiClient;
  /** The order's pieces from the flags; the recipients come from the file. */
  pieces: OrderPieces;
  path: string;
  /** The file's name in messages, as the user typed it. */
  file: string;
  size: number;
  /** Where the orders go (base URL and account): part of the run id. */
  scope: string;
}

export interface CheckedBatches {
  runId: string;
  batches: BatchSummary[];
  recipients: number;
  subtotal: Money | null;
  warnings: ValidationIssue[];
  planWarnings: string[];
}

export interface BatchSummary {
  batch: number;
  external_id: string;
  /** The 1-based positions of its first and last recipient among the data rows. */
  rows: [number, number];
  shipments: number;
  subtotal: Money | null;
}

/** Pass one: every batch built and checked, nothing sent. */
export async function checkBatches(options: BatchRunOptions, lookups: AccountLookups): Promise<CheckedBatches> {
  const runId = options.pieces.externalId ?? (await derivedRunId(options));
  const batches: BatchSummary[] = [];
  const warnings: ValidationIssue[] = [];
  const planWarnings = new Set<string>();
  let recipients = 0;
  for await (const batch of readRecipientBatches(options.path, options.file, options.size)) {
    const order = await prepareBatch(options, lookups, batch);
    const plan = pricePlan(order.body, order.products);
    const k = batches.length + 1;
    batches.push({ batch: k, external_id: `${runId}-${k}`, rows: [recipients + 1, recipients + batch.rows.length], shipments: plan.shipments, subtotal: plan.subtotal });
    recipients += batch.rows.length;
    if (warnings.length < 100) warnings.push(...order.warnings);
    for (const w of plan.warnings) planWarnings.add(w);
  }
  const subtotals = batches.map((b) => b.subtotal);
  const subtotal = subtotals.every((s): s is Money => s !== null) ? (sum(subtotals) ?? null) : null;
  return { runId, batches, recipients, subtotal, warnings, planWarnings: [...planWarnings] };
}

export interface BatchOutcome {
  batch: number;
  external_id: string;
  rows: [number, number];
  status: 'created' | 'refused';
  order_id?: number | string;
  /** Created by an earlier run or attempt, found instead of sent. */
  found?: boolean;
  error?: string;
}

export interface SendBatchesOptions extends BatchRunOptions {
  runId: string;
  journal: OrderJournal;
  concurrency: number;
  results?: ResultsFile;
  onOutcome?: (outcome: BatchOutcome) => void;
}

/**
 * Pass two: each batch sent exactly once, `concurrency` at a time. Resolves with every
 * batch's outcome in file order. An outcome the service left unknown (retries ran out)
 * stops the run: the batches in flight finish, no new one starts, and the error says to run
 * the same command again.
 */
export async function sendBatches(options: SendBatchesOptions, lookups: AccountLookups): Promise<BatchOutcome[]> {
  const batches = readRecipientBatches(options.path, options.file, options.size);
  let next = 0;
  let reading: Promise<unknown> = Promise.resolve();
  /** One reader of the stream at a time: each worker takes the next batch in file order. */
  const take = (): Promise<{ batch: RecipientsCsv; k: number; first: number } | undefined> => {
    const taken = reading.then(async () => {
      const item = await batches.next();
      if (item.done) return undefined;
      const k = ++next;
      return { batch: item.value, k, first: (k - 1) * options.size + 1 };
    });
    reading = taken.catch(() => undefined);
    return taken;
  };
  const outcomes: BatchOutcome[] = [];
  let stopped: unknown;
  const worker = async () => {
    for (let item = await take(); item && stopped === undefined; item = await take()) {
      try {
        const outcome = await sendBatch(options, lookups, item.batch, item.k, item.first);
        outcomes.push(outcome);
        options.onOutcome?.(outcome);
      } catch (err) {
        stopped ??= err;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  } finally {
    await batches.return(undefined);
  }
  if (stopped !== undefined) throw stopped;
  return outcomes.sort((a, b) => a.batch - b.batch);
}

async function sendBatch(options: SendBatchesOptions, lookups: AccountLookups, batch: RecipientsCsv, k: number, first: number): Promise<BatchOutcome> {
  const externalId = `${options.runId}-${k}`;
  const rows: [number, number] = [first, first + batch.rows.length - 1];
  const order = await prepareBatch(options, lookups, batch);
  const { external_id: _e, ...body } = order.body;
  const p = planSend(options.journal, body, options.scope, externalId);
  let created: { id: number | string; record?: Order; found: boolean };
  if (p.existing) {
    created = { id: p.existing.order_id, found: true };
  } else {
    try {
      const sent = await send(options.client, options.journal, body, p);
      created = { id: sent.orderId, record: sent.record, found: sent.duplicate };
    } catch (err) {
      if (!(err instanceof CliError) || err.exitCode !== ExitCode.refused) throw err;
      const outcome: BatchOutcome = { batch: k, external_id: externalId, rows, status: 'refused', error: err.message };
      await options.results?.append(batch.rows.map((_, i) => ({ row: first + i, external_id: externalId, status: 'refused', error: err.message })));
      return outcome;
    }
  }
  if (options.results) {
    const record = created.record ?? (await getOrder(options.client, String(created.id)));
    const shipments = record.shipping_orders ?? [];
    await options.results.append(
      batch.rows.map((_, i): ResultRow => ({ row: first + i, external_id: externalId, order_id: created.id, shipping_order_id: shipments[i]?.id ?? undefined, status: 'created' })),
    );
  }
  return { batch: k, external_id: externalId, rows, status: 'created', order_id: created.id, ...(created.found ? { found: true } : {}) };
}

async function prepareBatch(options: BatchRunOptions, lookups: AccountLookups, batch: RecipientsCsv): Promise<PreparedOrder> {
  const prepared = await prepareOrder(options.client, { ...options.pieces, recipients: batch }, lookups);
  if (!prepared.complete) throw new UsageError(`the order is incomplete: missing ${prepared.missing.join('; ')}`);
  return prepared.order;
}

/**
 * The run id of a command given no --external-id: a SHA-256 of the file's bytes, the other
 * pieces, the batch size and the target, in the form of a UUID.
 */
async function derivedRunId(options: BatchRunOptions): Promise<string> {
  const hash = createHash('sha256');
  hash.update(`${options.scope}\n${options.size}\n${JSON.stringify({ ...options.pieces, recipients: undefined })}\n`);
  for await (const chunk of createReadStream(options.path)) hash.update(chunk as Buffer);
  return uuidOfHash(hash.digest('hex'));
}
