import type { Readable } from 'node:stream';
import type { Context } from '../../../context.js';
import type { OrderRequest } from '../../../contract/order-request.js';
import { untilInterrupted } from '../../../lib/interrupt.js';
import { keepTheHeapLean } from '../../../lib/v8-flags.js';
import { createOrders, type CreateEvent, type CreateOrdersPorts, type CreateOutcome, type CreateRequest } from '../../../orders/create/engine.js';
import type { OrdersApi } from '../../../orders/create/ports.js';
import { checkInputFile } from '../../path-flags.js';
import { servicePorts } from '../service-ports.js';
import { confirmOrder } from './confirm.js';
import { piecesFromFlags, type OrderFlags } from './inputs.js';
import { inContractWords } from './outcomes.js';
import { paymentOf, printCreated, printDryRun } from './print.js';
import { confirmList, finish, printListPlan, printOutcomes } from './recipients-list.js';
import { reporter } from './report.js';
import { checkResultsFlags, resultsSink } from './results-flags.js';
import type { CreateTerminal } from './terminal.js';

/**
 * `merch orders create`: flags, a file, a recipients list or the wizard's answers become one
 * request to the order domain's one entry (src/orders/create/engine.ts: built, checked,
 * priced, matched with earlier orders, confirmed, placed exactly once); this layer builds its
 * ports once, renders what it reports as it runs (report.ts) and what it returns, and says
 * its errors in the contract's words (outcomes.ts), exit codes included.
 */
export async function run(ctx: Context, options: OrderFlags): Promise<void> {
  // What the command needs of the run's context, taken once: past this file, only these parts go.
  const { io, format, yes, prompter, settings, api, interrupts } = ctx;
  const terminal: CreateTerminal = { io, format, yes, prompter };
  if (options.file !== undefined) await checkInputFile('--file', options.file);
  if (options.recipients !== undefined) await checkInputFile('--recipients', options.recipients);
  await checkResultsFlags(options);
  const request = await requestOf(options, io.stdin, settings.configDir);
  const service = servicePorts({ settings, api });
  // Every row of a list is read, and every order of the account read back: a heap near its live data.
  if (request.recipients !== undefined) keepTheHeapLean();
  // A list's run stops between batches on Ctrl-C; the results of the rows placed are kept.
  const interruption = request.recipients === undefined ? undefined : untilInterrupted(interrupts);
  const results = options.results === undefined ? undefined : resultsSink(options.results, options.force === true);
  let viaWizard = false;
  let planned: OrderRequest | undefined;
  const ports: CreateOrdersPorts = {
    ...service,
    confirm: (question) => (question.kind === 'order' ? confirmOrder(terminal, question) : confirmList(terminal, question)),
    // The wizard asks for what the flags left out, where a person can answer.
    ...(prompter.canPrompt
      ? {
          complete: async (pieces, account) => {
            viaWizard = true;
            return (await import('./wizard.js')).runWizard({ io, prompter, settings, api }, pieces, account);
          },
        }
      : {}),
    ...(interruption ? { signal: interruption.signal } : {}),
    ...(results ? { results } : {}),
  };
  const report = reporter(terminal, request.dryRun === true);
  const events = (event: CreateEvent) => {
    if (event.kind === 'planned') planned = event.request;
    report(event);
  };
  try {
    await inContractWords(async () => {
      const outcome = await createOrders(request, ports, events).catch(async (err: unknown) => {
        // A failure to place what the wizard built comes with the command line that places it.
        if (!viaWizard || planned === undefined || request.dryRun) throw err;
        throw (await import('./wizard-rerun.js')).withCommandLine(err, planned, settings);
      });
      await show(terminal, outcome, { orders: service.orders, batched: request.batchSize !== undefined, results: options.results });
    });
  } finally {
    interruption?.dispose();
    await results?.close();
  }
}

/** The flags (and the files they name) as the engine's request; nothing is sent. */
async function requestOf(options: OrderFlags, stdin: Readable, journalDir: string): Promise<CreateRequest> {
  const list = options.recipients;
  // A list's rows are read by the run itself, as a stream.
  const pieces = await piecesFromFlags(options, stdin, { readRecipients: list === undefined });
  return {
    pieces,
    ...(list === undefined ? {} : { recipients: { path: list, file: list } }),
    dryRun: options.dryRun === true,
    batchSize: options.batchSize,
    concurrency: options.concurrency,
    assumeUnsent: options.assumeUnsent === true,
    journalDir,
  };
}

/** The outcome on stdout; a list's summary on stderr, and its exit code (5 when some orders were refused, 130 when stopped). `list`: what a list's orders are shown with. */
async function show(terminal: CreateTerminal, outcome: CreateOutcome, list: { orders: OrdersApi; batched: boolean; results?: string }): Promise<void> {
  switch (outcome.kind) {
    case 'order planned':
      return printDryRun(terminal, outcome.request, outcome.priced, paymentOf(outcome.order));
    case 'order placed':
      return printCreated(terminal, outcome.placed.record, outcome.placed.externalId, outcome.placed.status);
    case 'list planned':
      return printListPlan(terminal, outcome.plan, outcome.run);
    case 'list placed': {
      const { plan, outcomes, stopped } = outcome.result;
      // Without --batch-size, the orders themselves, as `orders create` prints one.
      await printOutcomes(terminal, outcomes, list.batched ? undefined : list.orders);
      return finish(terminal, plan, outcomes, stopped, list.results);
    }
  }
}
