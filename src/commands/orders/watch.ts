import { stat } from 'node:fs/promises';
import { CliError, ExitCode, UsageError, type ExitCodeValue } from '../../errors.js';
import { untilInterrupted, type Interrupts } from '../../lib/interrupt.js';
import type { FollowPorts } from '../../orders/follow/ports.js';
import { watchOrder } from '../../orders/follow/watcher.js';
import type { OutputTarget } from '../../output/render.js';
import { journalFlag } from '../journal-flag.js';
import { journalFeed } from './follow-ports.js';
import { watchView } from './watch-view.js';

/** What `orders watch` reads of its argument and flags. */
export interface WatchOptions {
  id: string;
  interval: number;
  journal: string | undefined;
  /** --journal's old name. */
  events: string | undefined;
}

/** What `orders watch` uses of the run: where it prints, Ctrl-C, and the service. */
export interface WatchDeps extends OutputTarget {
  interrupts: Interrupts;
  ports: FollowPorts;
}

/**
 * `orders watch ID`: every change of the order and its shipments, from polls and (with
 * --journal) a `webhooks listen` journal, until every shipment is delivered (exit 0), the
 * order is cancelled (exit 5) or Ctrl-C (exit 130). A service that fails in a way that
 * passes (5xx, 429, no answer) is polled through, each change said once (failing, answering
 * again); any other failure ends the watch with its own error. An event is only a reason to
 * read the order at once: what is shown is the service's answer, and an event it does not
 * confirm is a note (on stderr, or under the table), never the end of the watch.
 */
export async function run(options: WatchOptions, { io, format, interrupts, ports }: WatchDeps): Promise<ExitCodeValue> {
  const { id } = options;
  const journal = journalFlag(options.journal, { flag: '--events', value: options.events });
  if (journal.file !== undefined) await checkJournal(journal.flag, journal.file);
  const view = watchView({ io, format });
  const interruption = untilInterrupted(interrupts);
  // Changes and notices are shown one after the other, in the order they were learnt.
  let printing: Promise<void> = Promise.resolve();
  const inTurn = (show: () => Promise<void>) => void (printing = printing.then(show));
  let outcome;
  try {
    outcome = await watchOrder(
      {
        orderId: id,
        intervalMs: options.interval,
        interrupted: interruption.signal,
        onChange: (change, at) => inTurn(() => view.change(change, at)),
        onServiceChange: (change) => inTurn(() => view.service(change)),
        onUnconfirmed: (note) => inTurn(() => view.note(note)),
      },
      { ...ports, events: journal.file === undefined ? undefined : journalFeed(journal.file) },
    );
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
