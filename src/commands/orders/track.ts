import { DEFAULT_CONCURRENCY } from '../../api/paginate.js';
import { CancelledError, CliError, ExitCode, ShownError, UsageError } from '../../errors.js';
import { formatDuration } from '../../lib/duration.js';
import { untilInterrupted, type Interrupts } from '../../lib/interrupt.js';
import { CsvError } from '../../orders/create/recipients-csv.js';
import type { TrackPorts } from '../../orders/track/ports.js';
import { readResultsRows, type ResultsRow } from '../../orders/track/results-rows.js';
import { readSend, waitForSend, type OrderToTrack, type SendState, type TrackRequest } from '../../orders/track/send-tracker.js';
import type { TrackState } from '../../orders/track/track-states.js';
import { errorText } from '../../output/error-text.js';
import { progress } from '../../output/progress.js';
import type { OutputTarget } from '../../output/render.js';
import { singleLine } from '../../output/sanitize.js';
import { hintOf, type ServiceSettings } from '../hints.js';
import { printShipments, rowsWithoutOrder, shipmentName, someOf, summary } from './track-view.js';
import { failingSummary } from './wait.js';

/** What `orders track` reads of its arguments and flags. */
export interface TrackOptions {
  ids: string[];
  results: string | undefined;
  run: string | undefined;
  until: TrackState | undefined;
  maxWait: number | undefined;
  interval: number | undefined;
  concurrency: number | undefined;
}

/** What `orders track` uses of the run: where it prints, the service's settings (for a hint), Ctrl-C, and the service. */
export interface TrackDeps extends OutputTarget {
  settings: ServiceSettings;
  interrupts: Interrupts;
  ports: TrackPorts;
}

const DEFAULT_MAX_WAIT_MS = 30 * 60_000;
const DEFAULT_INTERVAL_MS = 15_000;

/**
 * `orders track [ID...] [--results FILE] [--run EXTERNAL_ID] [--until shipped|delivered]`:
 * one record per shipment (per recipient) of the orders named, read once, or polled until
 * every shipment is there. The records are printed in every case, as they stand, then a
 * summary on stderr; the exit code says the rest: 4 an order is unknown, 5 a shipment (or a
 * recipient with no order) can never get there, 6 --max-wait passed, 130 Ctrl-C.
 */
export async function run(options: TrackOptions, deps: TrackDeps): Promise<void> {
  const { ids } = options;
  const { io, ports } = deps;
  if (ids.length === 0 && options.results === undefined && options.run === undefined) {
    throw new UsageError('name the orders to track: order ids, --results FILE or --run EXTERNAL_ID', 'e.g. merch orders track --results results.csv');
  }
  if (options.until === undefined) {
    const stray = options.maxWait !== undefined ? '--max-wait' : options.interval !== undefined ? '--interval' : undefined;
    if (stray) throw new UsageError(`${stray} needs --until (shipped or delivered)`);
  }
  const rows = options.results === undefined ? [] : await resultsRows(options.results);
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const orders = new Map<string, { id: string; rows: ResultsRow[] }>();
  const order = (id: string) => orders.get(id) ?? orders.set(id, { id, rows: [] }).get(id)!;
  for (const id of ids) order(id);
  for (const row of rows) if (row.order_id !== undefined) order(row.order_id).rows.push(row);
  const unplaced = rowsWithoutOrder(rows.filter((row) => row.order_id === undefined));
  // Known from the file alone: said first, before any request or table (issue 42.5), not under a table.
  if (options.until !== undefined && unplaced.length > 0) {
    throw new CliError(
      `not every recipient can be ${options.until}: ${someOf(unplaced, 3)}`,
      ExitCode.refused,
      'run the same orders create command again to send the rows no order holds; without --until, merch orders track shows where the others stand',
    );
  }
  // The order list is read for a run, or for many orders at once: a counter on a terminal.
  const counter = progress(io, 'orders listed');
  const request: TrackRequest = {
    orders: [...orders.values()] satisfies OrderToTrack[],
    run: options.run,
    concurrency,
    onListed: (fetched, total) => counter.update(fetched, total),
  };

  if (options.until === undefined) {
    const state = await readSend(request, ports.orders).finally(() => counter.done());
    const notAll = state.missing.length > 0 || state.emptyRun !== undefined;
    // Nothing found at all: the error alone, not a header and "0 shipments" before it.
    if (notAll && state.shipments.length === 0 && state.withoutShipments.length === 0 && unplaced.length === 0) throw notFound(state);
    await report(deps, state, unplaced);
    if (notAll) throw notFound(state);
    return;
  }
  await waitForAll(deps, request, unplaced, counter, {
    until: options.until,
    maxWaitMs: options.maxWait ?? DEFAULT_MAX_WAIT_MS,
    intervalMs: options.interval ?? DEFAULT_INTERVAL_MS,
  });
}

async function waitForAll(
  deps: TrackDeps,
  request: TrackRequest,
  unplaced: string[],
  counter: { done(): void },
  wait: { until: TrackState; maxWaitMs: number; intervalMs: number },
): Promise<void> {
  const { io } = deps;
  const { until } = wait;
  const { clock } = deps.ports;
  const started = clock.now();
  const elapsed = () => formatDuration(clock.now() - started);
  const interruption = untilInterrupted(deps.interrupts);
  // One line on stderr per change of where the send stands (not one per poll), piped or not.
  let shown = '';
  const result = await waitForSend(
    request,
    {
      ...wait,
    interrupted: interruption.signal,
      onPoll: (state, over) => {
        counter.done();
        const now = summary(state.shipments);
        if (now !== shown && !over) io.err(singleLine(`${now} (waiting for ${until}, ${elapsed()})`));
        shown = now;
      },
      onServiceChange: (change) => {
        counter.done();
        io.err(
          singleLine(
            change.kind === 'failing'
              ? `${change.error.message}; polling on until --max-wait (${formatDuration(wait.maxWaitMs)})`
              : `the service answers again, after ${formatDuration(change.failedForMs)} of failures`,
          ),
        );
      },
    },
    deps.ports,
  ).finally(() => {
    counter.done();
    interruption.dispose();
  });
  const { state, waiting } = result;
  // An order that is not there: the wait can never end well; the error comes first, before the table of the others (issue 42.5).
  if (result.outcome === 'missing') {
    const error = notFound(state);
    io.stderr.write(errorText(error, io.color && io.stderrIsTTY));
    await report(deps, state, unplaced);
    throw new ShownError(error);
  }
  await report(deps, state, unplaced);
  const total = state.shipments.length;
  const failing = result.failing ? `; ${failingSummary(result.failing)}` : '';
  const behind = [...waiting.shipments.map((s) => `${shipmentName(s)}: ${s.status ?? 'status unknown'}`), ...waiting.orders.map((id) => `order ${id}: no shipment read`)];
  switch (result.outcome) {
    case 'reached':
      return;
    case 'cancelled': {
      const cancelled = [
        ...state.cancelled.map((s) => `${shipmentName(s)}: ${state.cancelledOrders.includes(String(s.order_id)) ? 'its order is cancelled' : 'cancelled'}`),
        ...state.cancelledOrders.filter((id) => !state.cancelled.some((s) => String(s.order_id) === id)).map((id) => `order ${id}: cancelled`),
      ];
      throw new CliError(`${cancelled.length === 1 ? 'a shipment' : `${cancelled.length} shipments`} can never be ${until}: ${someOf(cancelled)}`, ExitCode.refused);
    }
    case 'timed-out':
      if (!result.answered && result.failing) {
        // Nothing was learnt of the send: the requests failed (exit 1), the wait did not run out.
        throw new CliError(`tracking the send failed: ${failingSummary(result.failing)}`, ExitCode.failed, hintOf(result.failing.last, deps.settings));
      }
      throw new CliError(
        `${waiting.shipments.length} of ${total} shipments not ${until} after ${formatDuration(wait.maxWaitMs)}: ${someOf(behind)}${failing}`,
        ExitCode.timedOut,
        'wait longer with --max-wait (e.g. --max-wait 2h)',
      );
    case 'interrupted':
      throw new CancelledError(`interrupted after ${elapsed()}; ${waiting.shipments.length} of ${total} shipments not ${until}${failing}`);
  }
}

/** The records on stdout, then on stderr the summary and what has no shipment to show. */
async function report({ io, format }: OutputTarget, state: SendState, unplaced: string[]): Promise<void> {
  await printShipments({ io, format }, state.shipments);
  // Status names are the service's, the unplaced rows' words the results file's: each line one line.
  io.err(singleLine(summary(state.shipments)));
  for (const line of unplaced) io.err(singleLine(line));
  for (const { order_id: id, status } of state.withoutShipments) io.err(singleLine(`order ${id} lists no shipping orders (${status ?? 'status unknown'})`));
}

function notFound(state: SendState): CliError {
  const others = state.shipments.length > 0 || state.withoutShipments.length > 0 ? ' (the other orders are shown)' : '';
  if (state.emptyRun !== undefined) {
    const run = state.emptyRun;
    return new CliError(`no orders of run ${run}: none has the external id ${run} or ${run}-<n>${others}`, ExitCode.notFound);
  }
  const ids = state.missing;
  const what = ids.length === 1 ? `order ${ids[0]} was` : `orders ${someOf(ids)} were`;
  return new CliError(`${what} not found${others}`, ExitCode.notFound);
}

async function resultsRows(path: string): Promise<ResultsRow[]> {
  try {
    return await readResultsRows(path, path);
  } catch (error) {
    if (error instanceof CsvError) throw new UsageError(`--results: ${error.message}`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`--results: no file at ${path}`, 'give the file `orders create --results FILE` wrote');
    if (code === 'EISDIR' || code === 'EACCES') throw new UsageError(`--results: cannot read ${path} (${code === 'EISDIR' ? 'a directory' : 'permission denied'})`);
    // A FIFO, a device, a socket: refused at once, never waited on (src/lib/safe-files.ts).
    if (code === 'ENOTREG') throw new UsageError(`--results: ${(error as Error).message}`);
    throw error;
  }
}
