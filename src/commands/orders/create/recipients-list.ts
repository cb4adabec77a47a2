import { USUAL_RECIPIENT_FIELDS } from '../../../contract/address.js';
import { CliError, ExitCode } from '../../../errors.js';
import { count } from '../../../lib/count.js';
import type { CreateQuestion } from '../../../orders/create/engine.js';
import type { ListEvent, ListOutcome, ListPlan, ListRun } from '../../../orders/create/plan-batches.js';
import { SHIPPING_AND_TAX } from '../../../orders/create/plan.js';
import type { OrdersApi } from '../../../orders/create/ports.js';
import { readColumns } from '../../../orders/create/recipients-csv.js';
import { describeRows } from '../../../orders/create/row-ranges.js';
import { formatWarnings } from '../../../orders/create/validate.js';
import { shownMoney } from '../../../output/format.js';
import { isMachineOutput, printJson, printList, printsTable, type Column } from '../../../output/render.js';
import { singleLine } from '../../../output/sanitize.js';
import { wrapText } from '../../../output/wrap-text.js';
import { confirmPlacing } from './confirm.js';
import { defaultPaymentNotice, paymentOf, printCreated, printDryRun, printOrderPlan, withOutcome } from './print.js';
import type { CreateTerminal } from './terminal.js';

/**
 * `merch orders create --recipients FILE [--batch-size N]` as it shows a list's run
 * (src/orders/create/engine.ts places it: exactly once per row, every row to send checked
 * first, the rows earlier orders hold reported as existing, not sent again), and the
 * question before the new orders are placed.
 *
 * Reports tell created from existing everywhere: one line per order on stderr as it is
 * placed or found, the summary (`1 created (2 recipients), 3 existing (7 recipients), 0
 * refused`), stdout (with --batch-size one row per order and its status; without, the
 * orders themselves), --json, and the --results file. Exit 5 when the service refused
 * some batches, naming them; 130 when Ctrl-C stopped the run between batches.
 */

/** The run's events on stderr: its id once known, then a line per order placed, found or refused. */
export function listLine(ctx: CreateTerminal, event: ListEvent): void {
  if (event.kind === 'run') {
    const { runId, origin } = event.plan;
    if (origin === 'derived') {
      ctx.io.err(`run id: ${runId} (derived from the rows: a row already in an order of the account is not sent again)`);
    } else {
      ctx.io.err(`run id: ${runId}`);
    }
    return;
  }
  // An order of the account names its own external id, a refusal the service's words: one line.
  ctx.io.err(singleLine(`${orderLabel(event.outcome)}: ${statusText(event.outcome)}`));
}

/** `batch 2 (RUN-2, rows 4-6)`, `external id RUN (rows 1-7)` for a list sent as one order, `order 1001 (rows 2-3)` for another order of the account. */
function orderLabel(o: Pick<ListOutcome, 'batch' | 'external_id' | 'rows' | 'order_id'>): string {
  if (o.batch === null) return `order ${String(o.order_id)} (${o.external_id === '' ? '' : `external id ${o.external_id}, `}${describeRows(o.rows)})`;
  return o.batch === 0 ? `external id ${o.external_id} (${describeRows(o.rows)})` : `batch ${o.batch} (${o.external_id}, ${describeRows(o.rows)})`;
}

function statusText(o: ListOutcome): string {
  if (o.status === 'refused') return `refused: ${o.error}`;
  return `${o.status === 'existing' ? 'already created' : 'created'}: order ${o.order_id}`;
}

/** What the run will do, before "Place these orders?" and on stderr. */
function describe(plan: ListPlan): string[] {
  const lines: string[] = [];
  const held = plan.earlier.reduce((n, o) => n + o.rows.length, 0);
  if (plan.earlier.length > 0) lines.push(`${count(held, 'row')} of ${plan.recipients} already in ${count(plan.earlier.length, 'earlier order')} (${plan.earlier.map((o) => o.order_id).join(', ')}): not sent again`);
  const unlisted = plan.earlier.filter((o) => o.unlisted > 0);
  if (unlisted.length > 0) {
    const n = unlisted.reduce((sum, o) => sum + o.unlisted, 0);
    lines.push(`${count(n, 'row')} of earlier runs ${n === 1 ? 'is' : 'are'} no longer in the list: ${unlisted.length === 1 ? 'order' : 'orders'} ${unlisted.map((o) => o.order_id).join(', ')} unchanged`);
  }
  const rows = plan.batches.reduce((n, b) => n + b.rows.length, 0);
  if (plan.batches.length === 0) return [...lines, 'nothing to send: every row of the list is in an earlier order'];
  const ids = plan.batches.length === 1 ? plan.batches[0]!.external_id : `${plan.batches[0]!.external_id} to ${plan.batches.at(-1)!.external_id}`;
  lines.push(`${count(rows, 'recipient')} to send in ${count(plan.batches.length, 'order')} (external ${plan.batches.length === 1 ? 'id' : 'ids'} ${ids})`);
  return lines;
}

/** On stderr, before the question or the dry run: the warnings, then what the run will do. */
async function sayPlan(ctx: CreateTerminal, plan: ListPlan, run: ListRun): Promise<void> {
  // A warning may quote a cell of the list (a quoted cell may hold a line break): one line each.
  for (const line of await warningLines(plan, run)) ctx.io.err(singleLine(line));
  for (const w of plan.planWarnings) ctx.io.err(singleLine(`warning: ${w}`));
  for (const line of describe(plan)) ctx.io.err(line);
}

/**
 * The rows' warnings; a usual recipient field the list has no column for is said once, as
 * that (issue 30), not as "column postal_code: is empty" on every row.
 */
async function warningLines(plan: ListPlan, run: ListRun): Promise<string[]> {
  const ofField = (field: string) => (w: ListPlan['warnings'][number]) => w.path.endsWith(`.recipient.${field}`);
  const columns = plan.warnings.length === 0 ? [] : await readColumns(run.path, run.file);
  const absent = USUAL_RECIPIENT_FIELDS.filter((field) => !columns.includes(field) && plan.warnings.some(ofField(field)));
  const rest = plan.warnings.filter((w) => !absent.some((field) => ofField(field)(w)));
  const missing = absent.map((field) => `warning: ${run.file} has no ${field} column: the service may refuse the orders, or the parcels may not arrive`);
  return [...missing, ...formatWarnings(rest)];
}

/** The question before placing: the plan, the subtotal, shipping and tax, and the payment method (on a terminal; --yes skips it). */
export async function confirmList(ctx: CreateTerminal, { plan, run }: Extract<CreateQuestion, { kind: 'list' }>): Promise<boolean> {
  await sayPlan(ctx, plan, run);
  if (plan.batches.length === 0) return true;
  if (ctx.yes && plan.paymentIsDefault && plan.paymentMethod) ctx.io.err(defaultPaymentNotice(plan.paymentMethod));
  const { single } = plan;
  return confirmPlacing(ctx, {
    message: plan.batches.length === 1 ? 'Place this order?' : `Place these ${plan.batches.length} orders?`,
    hint: 'add --yes to create the orders, or --dry-run to see them',
    show: () => (single ? printOrderPlan(ctx, single.priced, single.order.body, paymentOf(single.order)) : printPlannedOrders(ctx, plan)),
  });
}

/** What sending would cost, for a terminal (broken between words where wider than it: wrapText). */
function summary(plan: ListPlan): string[] {
  const subtotal = plan.subtotal ? shownMoney(plan.subtotal) : 'unknown';
  const payment = paymentOf(plan);
  return [`Subtotal: ${subtotal}`, SHIPPING_AND_TAX, ...(payment ? [`Payment method: ${payment}${plan.paymentIsDefault ? ' (the account default)' : ''}`] : [])];
}

/**
 * The dry run: with --batch-size, the orders (earlier and to send) and the subtotal; with
 * --json every figure. Without, the one order to send as `orders create --dry-run` shows
 * an order (its exact body piped; `{request, plan}` with --json).
 */
export async function printListPlan(ctx: CreateTerminal, plan: ListPlan, run: ListRun): Promise<void> {
  await sayPlan(ctx, plan, run);
  // On a terminal the plan names the payment method; elsewhere a line on stderr does.
  const planShown = ctx.io.stdoutIsTTY && !isMachineOutput(ctx.format);
  if (!planShown && plan.paymentIsDefault && plan.paymentMethod) ctx.io.err(defaultPaymentNotice(plan.paymentMethod));
  const { single } = plan;
  if (plan.batches.length <= 1 && plan.earlier.length === 0 && single) return printDryRun(ctx, single.order.body, single.priced, paymentOf(single.order));
  if (isMachineOutput(ctx.format)) {
    const { single: _s, ...figures } = plan;
    return printJson(ctx, { run_id: figures.runId, recipients: figures.recipients, subtotal: figures.subtotal, earlier: figures.earlier, batches: figures.batches, warnings: figures.planWarnings });
  }
  await printPlannedOrders(ctx, plan);
}

/**
 * The run's orders, earlier and to send, one row each; on a terminal then what sending would
 * cost (when there is anything to send): the dry run's output, and what is shown before
 * "Place these N orders?".
 */
async function printPlannedOrders(ctx: CreateTerminal, plan: ListPlan): Promise<void> {
  const rows = [
    ...plan.earlier.map((o): PlannedRow => ({ batch: o.batch, external_id: o.external_id, status: 'existing', order_id: o.order_id, recipients: o.rows.length, rows: ranges(o.rows), subtotal: '' })),
    ...plan.batches.map((b): PlannedRow => ({ batch: b.batch, external_id: b.external_id, status: 'to send', recipients: b.shipments, rows: ranges(b.rows), subtotal: b.subtotal ? shownMoney(b.subtotal) : '?' })),
  ];
  await printList(ctx, rows, printsTable(ctx) ? plannedColumns.filter((c) => c.header !== EXTERNAL_ID) : plannedColumns);
  if (ctx.io.stdoutIsTTY && plan.batches.length > 0) ctx.io.out(wrapText(summary(plan).join('\n'), ctx.io.columns ?? 80));
}

/**
 * A run's orders keep every column piped and in CSV; a terminal table leaves out the
 * external id, which is `<run id>-<batch>` (the run id is said first, on stderr), so that it
 * fits 80 columns with a derived run id of 36 characters.
 */
const EXTERNAL_ID = 'External ID';

/** An order of the run in the dry run: an earlier one, or one to send. */
interface PlannedRow {
  batch: number | null;
  external_id: string;
  status: 'existing' | 'to send';
  order_id?: number | bigint | string;
  recipients: number;
  rows: string;
  subtotal: string;
}

const plannedColumns: Column<PlannedRow>[] = [
  { header: 'Batch', value: (r) => r.batch, kind: 'number' },
  { header: EXTERNAL_ID, value: (r) => r.external_id },
  { header: 'Status', value: (r) => r.status, kind: 'fixed' },
  { header: 'Order ID', value: (r) => r.order_id, kind: 'number' },
  { header: 'Recipients', value: (r) => r.recipients, kind: 'number' },
  { header: 'Rows', value: (r) => r.rows },
  { header: 'Subtotal', value: (r) => r.subtotal, kind: 'number' },
];

/** `1-3,8` */
function ranges(rows: readonly number[]): string {
  return describeRows(rows, Number.POSITIVE_INFINITY).replace(/^rows? /, '').replace(/, /g, ',');
}

/**
 * stdout: with --batch-size one row per order (earlier ones first), `--json` the outcome
 * records; without (`asOrders`: the service's orders, to read them through), each order as
 * `orders create` prints one (the service's record with --json, with its `outcome`: one
 * object, or an array when the list's rows are in several orders).
 */
export async function printOutcomes(ctx: CreateTerminal, outcomes: ListOutcome[], asOrders: OrdersApi | undefined): Promise<void> {
  if (asOrders) {
    const placed = outcomes.filter((o) => o.order_id !== undefined);
    const records = await Promise.all(placed.map((o) => asOrders.get(o.order_id!)));
    const outcomeOf = (i: number) => (placed[i]!.status === 'existing' ? 'existing' : 'created');
    if (isMachineOutput(ctx.format)) {
      const marked = records.map((record, i) => withOutcome(record, outcomeOf(i)));
      return printJson(ctx, marked.length === 1 ? marked[0] : marked);
    }
    for (const [i, record] of records.entries()) await printCreated(ctx, record, placed[i]!.external_id, outcomeOf(i));
    return;
  }
  if (isMachineOutput(ctx.format)) return printJson(ctx, outcomes.map((o) => ({ ...o, recipients: o.rows.length })));
  const leftOut = outcomes.some((o) => o.error !== undefined) ? [EXTERNAL_ID] : [EXTERNAL_ID, 'Error'];
  await printList(ctx, outcomes, printsTable(ctx) ? outcomeColumns.filter((c) => !leftOut.includes(c.header)) : outcomeColumns);
}

/** A row per order of the run (`batch external_id order_id status recipients rows error`); on a terminal the error column only when an order has one. */
const outcomeColumns: Column<ListOutcome>[] = [
  { header: 'Batch', value: (o) => o.batch, kind: 'number' },
  { header: EXTERNAL_ID, value: (o) => o.external_id },
  { header: 'Order ID', value: (o) => o.order_id, kind: 'number' },
  { header: 'Status', value: (o) => o.status, kind: 'fixed' },
  { header: 'Recipients', value: (o) => o.rows.length, kind: 'number' },
  { header: 'Rows', value: (o) => ranges(o.rows) },
  { header: 'Error', value: (o) => o.error, kind: 'wrapped' },
];

/** The summary on stderr, and the exit code: 5 when some batches were refused, 130 when stopped. */
export function finish(ctx: CreateTerminal, plan: ListPlan, outcomes: ListOutcome[], stopped: boolean, resultsFile?: string): void {
  // The results file this run wrote: the same command again would be refused for it (it exists).
  const again = resultsFile === undefined ? 'run the same command again' : `run the same command again with --force (to rewrite ${resultsFile})`;
  const of = (status: ListOutcome['status']) => {
    const these = outcomes.filter((o) => o.status === status);
    const recipients = these.reduce((n, o) => n + o.rows.length, 0);
    return `${these.length} ${status}${these.length > 0 ? ` (${count(recipients, 'recipient')})` : ''}`;
  };
  const tally = `${of('created')}, ${of('existing')}, ${of('refused')}`;
  const refused = outcomes.filter((o) => o.status === 'refused');
  if (stopped) {
    const left = plan.batches.length - (outcomes.length - plan.earlier.length);
    throw new CliError(`stopped: ${tally}; ${count(left, 'order')} not sent`, ExitCode.interrupted, `${again} to send the rest: the orders already placed are not sent again`);
  }
  if (refused.length === 0) return ctx.io.err(tally);
  throw new CliError(
    `${tally}; refused: ${refused.map(orderLabel).join('; ')}`,
    ExitCode.refused,
    `fix those rows and ${again}: the rows already in orders are not sent again`,
  );
}
