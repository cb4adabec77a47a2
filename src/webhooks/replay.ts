import { newTransport } from '../api/connections.js';
import type { ProxyEnvironment } from '../lib/proxy-environment.js';
import { postEvent } from './forwarder.js';
import { scanJournal, type JournalEvent } from './event-journal.js';

/**
 * Resends saved events: reads a journal, selects one event (`id`) or all, and POSTs each
 * once, in order, to `to`, or else to the targets it was forwarded to when received. The
 * journal is only read, so replaying is safe while a listener is appending to it.
 */

export interface ReplayOptions {
  file: string;
  id?: number;
  to?: string;
  timeoutMs?: number;
  /** HTTPS_PROXY, HTTP_PROXY and NO_PROXY, for targets that are not on this machine. */
  proxy?: ProxyEnvironment;
}

export interface ReplayResult {
  id: number;
  event: string;
  /** Empty when the event was skipped. */
  target: string;
  /** `skipped`: no `to` given and the event was never forwarded. */
  outcome: 'sent' | 'failed' | 'skipped';
  /** `answered 204`, `connection refused`, ... */
  detail: string;
}

/** The selected id is not in the journal. */
export class ReplayNotFoundError extends Error {
  override name = 'ReplayNotFoundError';
}

/** Yields one result per request (or skipped event), as each completes. */
export async function* replay(options: ReplayOptions): AsyncGenerator<ReplayResult> {
  const events: JournalEvent[] = [];
  await scanJournal(options.file, (record) => {
    if (record.type === 'event' && (options.id === undefined || record.event.id === options.id)) {
      events.push(record.event);
    }
  });
  if (options.id !== undefined && events.length === 0) {
    throw new ReplayNotFoundError(`no event ${options.id} in ${options.file}`);
  }

  const agent = newTransport(options.proxy);
  try {
    for (const event of events) {
      const targets = options.to !== undefined ? [options.to] : event.forward_to ?? [];
      const base = { id: event.id, event: event.event };
      if (targets.length === 0) yield { ...base, target: '', outcome: 'skipped', detail: 'never forwarded (pass --to URL)' };
      for (const target of targets) {
        const result = await postEvent(target, event, { timeoutMs: options.timeoutMs ?? 10_000, transport: agent, proxy: options.proxy });
        yield result.ok
          ? { ...base, target, outcome: 'sent', detail: `answered ${result.status}` }
          : { ...base, target, outcome: 'failed', detail: result.problem };
      }
    }
  } finally {
    await agent.close();
  }
}
