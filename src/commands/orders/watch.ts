import { stat } from 'node:fs/promises';
import { getOrder } from '../../api/resources/orders.js';
import type { Context } from '../../context.js';
import { CliError, ExitCode, UsageError, type ExitCodeValue } from '../../errors.js';
import { untilInterrupted } from '../../lib/interrupt.js';
import { watchOrder } from '../../orders/follow/watcher.js';
import type { OptionsOf } from '../define-command.js';
import { journalFlag } from '../journal-flag.js';
import type { watchCommand } from './watch.command.js';
import { watchView } from './watch-view.js';

/**
 * `orders watch ID`: every change of the order and its shipments, from polls and (with
 * --events) a `webhooks listen` journal, until every shipment is delivered (exit 0), the
 * order is cancelled (exit 5) or Ctrl-C (exit 130). A service that fails in a way that
 * passes (5xx, 429, no answer) is polled through, each change said once (failing, answering
 * again); any other failure ends the watch with its own error. An event is only a reason to
 * read the order at once: what is shown is the service's answer, and an event it does not
 * confirm is a note (on stderr, or under the table), never the end of the watch.
 */
export async function run(ctx: Context, id: string, options: OptionsOf<typeof watchCommand>): Promise<ExitCodeValue> {
  const journal = journalFlag(ctx.io, options.journal, { flag: '--events', value: options.events });
  if (journal.file !== undefined) await checkJournal(journal.flag, journal.file);
  const view = watchView(ctx);
  const interruption = untilInterrupted(ctx.interrupts);
  // Changes and notices are shown one after the other, in the order they were learnt.
  let printing: Promise<void> = Promise.resolve();
  const inTurn = (show: () => Promise<void>) => void (printing = printing.then(show));
  let outcome;
  try {
    outcome = await watchOrder({
      orderId: id,
      fetchOrder: () => getOrder(ctx.api(), id),
      intervalMs: options.interval,
      eventsFile: journal.file,
      interrupted: interruption.signal,
      onChange: (change, at) => inTurn(() => view.change(change, at)),
      onServiceChange: (change) => inTurn(() => view.service(change)),
      onUnconfirmed: (note) => inTurn(() => view.note(note)),
    });
  } finally {
    interruption.dispose();
    inTurn(() => view.finish());
    await printing;
  }
  if (outcome === 'cancelled') throw new CliError(`order ${id} is cancelled: its shipments will never be delivered`, ExitCode.refused);
  return outcome === 'interrupted' ? ExitCode.interrupted : ExitCode.ok;
}

async function checkJournal(flag: string, file: string): Promise<void> {
  const found = await stat(file).catch(() => undefined);
  if (!found?.isFile()) {
    throw new UsageError(`${flag}: no journal at ${file}`, 'give the file `merch webhooks listen --journal FILE` writes to (it is created when the listener starts)');
  }
}
