import { causeOf } from '../../api/errors.js';
import { CancelledError, CliError, ExitCode } from '../../errors.js';
import { untilInterrupted, type Interrupts } from '../../lib/interrupt.js';
import { formatDuration } from '../../lib/duration.js';
import type { FollowPorts } from '../../orders/follow/ports.js';
import type { Failing, ServiceChange } from '../../orders/follow/service-health.js';
import type { TrackedOrder } from '../../orders/follow/tracked-order.js';
import { waitForOrder } from '../../orders/follow/waiter.js';
import { standing, type WaitState } from '../../orders/follow/wait-states.js';
import type { IO } from '../../output/io.js';
import { liveLine } from '../../output/progress.js';
import type { OutputTarget } from '../../output/render.js';
import { singleLine } from '../../output/sanitize.js';
import { hintOf, type ServiceSettings } from '../hints.js';
import { printOrder } from './get.js';

/** What `orders wait` reads of its argument and flags. */
export interface WaitOptions {
  id: string;
  until: WaitState;
  maxWait: number;
  interval: number;
}

/** What `orders wait` uses of the run: where it prints, the service's settings (for a hint), Ctrl-C, and the service. */
export interface WaitDeps extends OutputTarget {
  settings: ServiceSettings;
  interrupts: Interrupts;
  ports: FollowPorts;
}

/**
 * `orders wait ID --until STATE`: polls until the order is there and prints it as `orders
 * get` does (exit 0); exit 6 when --max-wait passes, 5 when it is cancelled, 130 on
 * Ctrl-C, each saying on stderr where the order stands. A terminal sees one live line, cut
 * to its width. A service that fails in a way that passes (5xx, 429, no answer) is polled
 * through, and each change (failing, answering again) is a line on stderr, piped too; any
 * other failure ends the wait at once with its own error. When the service failed to the
 * end, the error names the last failure (exit 1 when it never answered at all).
 */
export async function run(options: WaitOptions, { io, format, settings, interrupts, ports }: WaitDeps): Promise<void> {
  const { id } = options;
  const status = await statusLine(io);
  const interruption = untilInterrupted(interrupts);
  const { clock } = ports;
  const started = clock.now();
  const elapsed = () => formatDuration(clock.now() - started);
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
    io.err(
      singleLine(
        change.kind === 'failing'
          ? `order ${id}: ${change.error.message}; polling on until --max-wait (${formatDuration(options.maxWait)})`
          : `order ${id}: the service answers again, after ${formatDuration(change.failedForMs)} of failures`,
      ),
    );
  };
  const result = await waitForOrder(
    {
      orderId: id,
      until: options.until,
      maxWaitMs: options.maxWait,
      intervalMs: options.interval,
      interrupted: interruption.signal,
      onProgress: (order) => {
        known = order;
        showStatus();
      },
      onServiceChange,
    },
    ports,
  ).finally(() => {
    status.done();
    interruption.dispose();
  });
  const failing = result.failing ? failingSummary(result.failing) : undefined;
  const where = result.order ? `${standing(result.order)}${failing ? `; ${failing}` : ''}` : (failing ?? 'the service has not answered yet');
  switch (result.outcome) {
    case 'reached':
      await printOrder({ io, format }, result.record!);
      return;
    case 'cancelled':
      throw new CliError(`order ${id} can never be ${options.until}: ${where}`, ExitCode.refused);
    case 'interrupted':
      throw new CancelledError(`interrupted after ${elapsed()}; order ${id}: ${where}`);
    case 'timed-out':
      if (!result.answered && result.failing) {
        // Nothing was learnt of the order: the requests failed (exit 1), the wait did not run out.
        throw new CliError(`waiting for order ${id} failed: ${failing}`, ExitCode.failed, hintOf(result.failing.last, settings));
      }
      throw new CliError(`order ${id} is not ${options.until} after ${formatDuration(options.maxWait)}: ${where}`, ExitCode.timedOut, 'wait longer with --max-wait (e.g. --max-wait 2h)');
  }
}

/** `no answer from the service for 20s; last: 500 Server Error (after 4 attempts)` */
export function failingSummary({ forMs, last }: Failing): string {
  return `no answer from the service for ${formatDuration(forMs)}; last: ${causeOf(last)}`;
}

/** The live line on a terminal (stderr), each text cut to the terminal's width so that a redraw leaves nothing behind. */
async function statusLine(io: IO): Promise<{ live: boolean; show(text: string): void; done(): void }> {
  if (!io.stderrIsTTY) return { live: false, show() {}, done() {} };
  const { truncate } = await import('../../output/table.js');
  const line = liveLine(io);
  const width = Math.max(20, (io.columns ?? 80) - 1);
  return { live: true, show: (text) => line.show(truncate(singleLine(text), width)), done: line.done };
}
