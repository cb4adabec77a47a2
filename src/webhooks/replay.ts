import { Agent } from 'undici';
import { postEvent } from './forwarder.js';
import { scanJournal, type JournalEvent } from './journal.js';

/**
 * Resends saved events: reads a journal, selects one event (`id`) or all, and POSTs each
 * once to `to`, or else to the targets it was forwarded to when received. The journal is
 * only read, so replaying is safe while a listener is appending to it.
 */

export interface ReplayOptions {
  file: string;
  id?: number;
  to?: string;
  timeoutMs?: number;
  onResult?: (result: ReplayResult) => void;
}

export interface ReplayResult {
  id: number;
  event: string;
  target: string;
  ok: boolean;
  /** `answered 204`, `connection refused`, ... */
  detail: string;
}

export interface ReplaySummary {
  sent: number;
  failed: number;
  /** Selected events with no target (no `to` given and never forwarded). */
  skipped: number;
}

/** The selected id is not in the journal. */
export class ReplayNotFoundError extends Error {
  override name = 'ReplayNotFoundError';
}

export async function replay(options: ReplayOptions): Promise<ReplaySummary> {
  const events: JournalEvent[] = [];
  await scanJournal(options.file, (record) => {
    if (record.type === 'event' && (options.id === undefined || record.event.id === options.id)) {
      events.push(record.event);
    }
  });
  if (options.id !== undefined && events.length === 0) {
    throw new ReplayNotFoundError(`no event ${options.id} in ${options.file}`);
  }

  const summary: ReplaySummary = { sent: 0, failed: 0, skipped: 0 };
  const agent = new Agent();
  try {
    for (const event of events) {
      const targets = options.to !== undefined ? [options.to] : event.forward_to ?? [];
      if (targets.length === 0) summary.skipped++;
      for (const target of targets) {
        const result = await postEvent(target, event, { timeoutMs: options.timeoutMs ?? 10_000, dispatcher: agent });
        if (result.ok) summary.sent++;
        else summary.failed++;
        options.onResult?.({
          id: event.id,
          event: event.event,
          target,
          ok: result.ok,
          detail: result.ok ? `answered ${result.status}` : result.problem,
        });
      }
    }
  } finally {
    await agent.close();
  }
  return summary;
}
