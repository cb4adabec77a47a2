import { access } from 'node:fs/promises';
import type { Context } from '../../../context.js';
import { CancelledError, CliError, ExitCode, UsageError } from '../../../errors.js';
import { checkBatches, sendBatches, type BatchOutcome, type CheckedBatches } from '../../../orders/batches.js';
import { piecesFromFlags, type OrderFlags } from '../../../orders/inputs.js';
import { OrderJournal } from '../../../orders/journal.js';
import { SHIPPING_AND_TAX } from '../../../orders/plan.js';
import { AccountLookups } from '../../../orders/prepare.js';
import { ResultsFile } from '../../../orders/results-file.js';
import { formatWarnings } from '../../../orders/validate.js';
import { isMachineOutput, printJson, write } from '../../../output/render.js';
import { cell } from '../../../output/sanitize.js';

/**
 * `merch orders create --recipients FILE --batch-size N`: every batch checked first (exit 2,
 * nothing sent, if one does not pass), then a confirmation, then the batches sent exactly
 * once each (src/orders/batches.ts). One line per batch on stdout; exit 5 when the service
 * refused some, naming them.
 */
export async function runBatched(ctx: Context, options: OrderFlags & { recipients: string; batchSize: number }, scope: string): Promise<void> {
  try {
    await access(options.recipients);
  } catch (err) {
    throw new UsageError(`--recipients: cannot read ${options.recipients}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const run = {
    client: ctx.api(),
    pieces: await piecesFromFlags(options, ctx.io.stdin, { readRecipients: false }),
    path: options.recipients,
    file: options.recipients,
    size: options.batchSize,
    scope,
  };
  const lookups = new AccountLookups(run.client);
  const checked = await checkBatches(run, lookups);
  for (const line of formatWarnings(checked.warnings)) ctx.io.err(line);
  for (const w of checked.planWarnings) ctx.io.err(`warning: ${w}`);
  if (options.dryRun) return printPlan(ctx, checked);

  if (!ctx.yes) {
    if (!ctx.io.canPrompt) throw new UsageError('--yes required when not interactive', 'add --yes to create the orders, or --dry-run to see them');
    ctx.io.out(describe(checked));
    const { confirm } = await import('@inquirer/prompts');
    const ok = await confirm({ message: `Place these ${checked.batches.length} orders?`, default: false }, { input: ctx.io.stdin, output: ctx.io.stdout });
    if (!ok) throw new CancelledError('cancelled: no order was created');
  }

  const journal = await OrderJournal.open(ctx.settings.configDir);
  try {
    ctx.io.err(`external ids: ${checked.runId}-1 to -${checked.batches.length}`);
    const outcomes = await sendBatches(
      {
        ...run,
        runId: checked.runId,
        journal,
        concurrency: options.concurrency ?? 1,
        results: options.results === undefined ? undefined : await ResultsFile.create(options.results),
        onOutcome: (o) => ctx.io.err(outcomeLine(o, checked.batches.length)),
      },
      lookups,
    );
    await printOutcomes(ctx, outcomes);
    const refused = outcomes.filter((o) => o.status === 'refused');
    const tally = `${outcomes.length - refused.length} of ${outcomes.length} orders created for ${checked.recipients} recipients`;
    if (refused.length === 0) return ctx.io.err(tally);
    throw new CliError(
      `${tally}; refused: ${refused.map((o) => `batch ${o.batch} (rows ${o.rows[0]}-${o.rows[1]}, external id ${o.external_id})`).join('; ')}`,
      ExitCode.refused,
      'fix those rows and run the same command again: the batches already created are not sent again',
    );
  } finally {
    await journal.close();
  }
}

function describe(checked: CheckedBatches): string {
  const subtotal = checked.subtotal ? `${checked.subtotal.display} ${checked.subtotal.currency}` : 'unknown';
  return [
    `${checked.recipients} recipients in ${checked.batches.length} orders (external ids ${checked.runId}-1 to -${checked.batches.length})`,
    `Subtotal: ${subtotal}`,
    SHIPPING_AND_TAX,
  ].join('\n');
}

/** The dry run: the batches, the subtotal; with --json every figure. */
async function printPlan(ctx: Context, checked: CheckedBatches): Promise<void> {
  if (isMachineOutput(ctx.format)) {
    return printJson(ctx, { run_id: checked.runId, recipients: checked.recipients, subtotal: checked.subtotal, batches: checked.batches, warnings: checked.planWarnings });
  }
  const rows = checked.batches.map((b) => [b.batch, b.external_id, `${b.rows[0]}-${b.rows[1]}`, b.shipments, b.subtotal ? `${b.subtotal.display} ${b.subtotal.currency}` : '?'].map(cell).join('\t'));
  await write(ctx.io, `${['batch\texternal_id\trows\tshipments\tsubtotal', ...rows].join('\n')}\n`);
  if (ctx.io.stdoutIsTTY) ctx.io.out(describe(checked));
}

function outcomeLine(o: BatchOutcome, of: number): string {
  const what = o.status === 'refused' ? `refused: ${o.error}` : `${o.found ? 'already created' : 'created'}: order ${o.order_id}`;
  return `batch ${o.batch} of ${of} (rows ${o.rows[0]}-${o.rows[1]}): ${what}`;
}

async function printOutcomes(ctx: Context, outcomes: BatchOutcome[]): Promise<void> {
  if (isMachineOutput(ctx.format)) return printJson(ctx, outcomes);
  const lines = outcomes.map((o) => [o.batch, o.external_id, o.order_id, o.status, o.rows[0], o.rows[1], o.error].map(cell).join('\t'));
  await write(ctx.io, `${['batch\texternal_id\torder_id\tstatus\tfirst_row\tlast_row\terror', ...lines].join('\n')}\n`);
}
