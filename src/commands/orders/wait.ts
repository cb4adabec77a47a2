import { causeOf } from '../../api/errors.js';
import { getOrder } from '../../api/resources/orders.js';
import type { Context } from '../../context.js';
import { CancelledError, CliError, ExitCode } from '../../errors.js';
import { untilInterrupted } from '../../lib/interrupt.js';
import { formatDuration } from '../../lib/duration.js';
import type { Failing, ServiceChange } from '../../orders/follow/service-health.js';
import type { TrackedOrder } from '../../orders/follow/tracked-order.js';
import { waitForOrder } from '../../orders/follow/waiter.js';
import { standing } from '../../orders/follow/wait-states.js';
import { liveLine } from '../../output/progress.js';
import { singleLine } from '../../output/sanitize.js';
import { hintOf } from '../hints.js';
import type { OptionsOf } from '../define-command.js';
import type { waitCommand } from './wait.command.js';
import { printOrder } from './get.js';

/**
 * `orders wait ID --until STATE`: polls until the order is there and prints it as `orders
 * get` does (exit 0); exit 6 when --max-wait passes, 5 when it is cancelled, 130 on
 * Ctrl-C, each saying on stderr where the order stands. A terminal sees one live line, cut
 * to its width. A service that fails in a way that passes (5xx, 429, no answer) is polled
 * through, and each change (failing, answering again) is a line on stderr, piped too; any
 * other failure ends the wait at once with its own error. When the service failed to the
 * end, the error names the last failure (exit 1 when it never answered at all).
 */
export async function run(ctx: Context, id: string, options: OptionsOf<typeof waitCommand>): Promise<void> {
  const status = await statusLine(ctx);
  const interruption = untilInterrupted(ctx.interrupts);
  const started = Date.now();
  const elapsed = () => formatDuration(Date.now() - started);
  let known: TrackedOrder | undefined;
  let failingNow: string | undefined;
  // While the service fails, the live line says so first: what is known of the order has not changed.
  const showStatus = () => {
    const where = failingNow ?? (known ? standing(known, 'short') : 'waiting for the first answer');
    status.show(`order ${id}: ${where} (${elapsed()}, until ${options.until})`);
  };
  const onServiceChange = (change: ServiceChange) => {
    failingNow = change.kind === 'failing' ? `${causeOf(change.error)}, polling on` : undefined;
    if (status.live) return showStatus();
    ctx.io.err(
      singleLine(
        change.kind === 'failing'
          ? `order ${id}: ${change.error.message}; polling on until --max-wait (${formatDuration(options.maxWait)})`
          : `order ${id}: the service answers again, after ${formatDuration(change.failedForMs)} of failures`,
      ),
    );
  };
  const result = await waitForOrder({
    orderId: id,
    until: options.until,
    fetchOrder: () => getOrder(ctx.api(), id),
    maxWaitMs: options.maxWait,
    intervalMs: options.interval,
    interrupted: interruption.signal,
    onProgress: (order) => {
      known = order;
      showStatus();
    },
    onServiceChange,
  }).finally(() => {
    status.done();
    interruption.dispose();
  });
  const failing = result.failing ? failingSummary(result.failing) : undefined;
  const where = result.order ? `${standing(result.order)}${failing ? `; ${failing}` : ''}` : (failing ?? 'the service has not answered yet');
  switch (result.outcome) {
    case 'reached':
      await printOrder(ctx, result.record!);
      return;
    case 'cancelled':
      throw new CliError(`order ${id} can never be ${options.until}: ${where}`, ExitCode.refused);
    case 'interrupted':
      throw new CancelledError(`interrupted after ${elapsed()}; order ${id}: ${where}`);
    case 'timed-out':
      if (!result.answered && result.failing) {
        // Nothing was learnt of the order: the requests failed (exit 1), the wait did not run out.
        throw new CliError(`waiting for order ${id} failed: ${failing}`, ExitCode.failed, hintOf(result.failing.last, ctx.settings));
      }
      throw new CliError(`order ${id} is not ${options.until} after ${formatDuration(options.maxWait)}: ${where}`, ExitCode.timedOut, 'wait longer with --max-wait (e.g. --max-wait 2h)');
  }
}

/** `no answer from the service for 20s; last: 500 Server Error (after 4 attempts)` */
export function failingSummary({ forMs, last }: Failing): string {
  return `no answer from the service for ${formatDuration(forMs)}; last: ${causeOf(last)}`;
}

/** The live line on a terminal (stderr), each text cut to the terminal's width so that a redraw leaves nothing behind. */
async function statusLine(ctx: Context): Promise<{ live: boolean; show(text: string): void; done(): void }> {
  if (!ctx.io.stderrIsTTY) return { live: false, show() {}, done() {} };
  const { truncate } = await import('../../output/table.js');
  const line = liveLine(ctx.io);
  const width = Math.max(20, (ctx.io.columns ?? 80) - 1);
  return { live: true, show: (text) => line.show(truncate(singleLine(text), width)), done: line.done };
}
