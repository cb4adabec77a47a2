import { getOrder } from '../../api/resources/orders.js';
import type { Context } from '../../context.js';
import { CancelledError, CliError, ExitCode } from '../../errors.js';
import { untilInterrupted } from '../../lib/interrupt.js';
import { formatDuration } from '../../lib/duration.js';
import { waitForOrder } from '../../orders/follow/waiter.js';
import { standing, type WaitState } from '../../orders/follow/wait-states.js';
import { liveLine } from '../../output/progress.js';
import { singleLine } from '../../output/sanitize.js';
import { printOrder } from './get.js';

export interface WaitOptions {
  until: WaitState;
  maxWait: number;
  interval: number;
}

/**
 * `orders wait ID --until STATE`: polls until the order is there and prints it as `orders
 * get` does (exit 0); exit 6 when --max-wait passes, 5 when it is cancelled, 130 on
 * Ctrl-C, each saying on stderr where the order stands. A terminal sees one live line.
 */
export async function run(ctx: Context, id: string, options: WaitOptions): Promise<void> {
  const line = liveLine(ctx.io);
  const interruption = untilInterrupted(ctx.interrupts);
  const started = Date.now();
  const elapsed = () => formatDuration(Date.now() - started);
  const result = await waitForOrder({
    orderId: id,
    until: options.until,
    fetchOrder: () => getOrder(ctx.api(), id),
    maxWaitMs: options.maxWait,
    intervalMs: options.interval,
    interrupted: interruption.signal,
    onProgress: (order) => line.show(singleLine(`order ${id}: ${standing(order)} (waiting for ${options.until}, ${elapsed()})`)),
    onTransientError: (error, retryInMs) => line.show(singleLine(`order ${id}: ${error.message}; polling again in ${formatDuration(retryInMs)}`)),
  }).finally(() => {
    line.done();
    interruption.dispose();
  });
  const where = result.order ? standing(result.order) : 'the service has not answered yet';
  switch (result.outcome) {
    case 'reached':
      await printOrder(ctx, result.record!);
      return;
    case 'cancelled':
      throw new CliError(`order ${id} can never be ${options.until}: ${where}`, ExitCode.refused);
    case 'interrupted':
      throw new CancelledError(`interrupted after ${elapsed()}; order ${id}: ${where}`);
    case 'timed-out':
      throw new CliError(
        `order ${id} is not ${options.until} after ${formatDuration(options.maxWait)}: ${where}`,
        ExitCode.timedOut,
        'wait longer with --max-wait (e.g. --max-wait 2h)',
      );
  }
}
