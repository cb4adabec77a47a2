import { newTransport, proxyFailure } from '../api/connections.js';
import type { Transport } from '../api/transport.js';
import { describeFailure } from '../api/errors.js';
import type { ProxyEnvironment } from '../lib/proxy-environment.js';
import { backoffDelay, sleep, type BackoffPolicy } from '../lib/backoff.js';
import { VERSION } from '../version.js';
import type { JournalEvent } from './event-journal.js';
import { withoutToken } from './hook-target.js';

/**
 * Relays received events to local targets. Each target has its own queue, delivered in
 * order: the head event is retried with exponential backoff and jitter until the target
 * answers 2xx, then marked delivered (in the journal) and the next one goes. Events not
 * yet delivered when the forwarder stops stay undelivered in the journal and are resumed
 * by the next listener.
 */

export interface ForwarderOptions {
  /** Records a delivery; the listener passes the journal's `markDelivered`. */
  markDelivered?: (id: number, target: string) => Promise<void>;
  backoff?: Partial<BackoffPolicy>;
  /** Time allowed for one attempt. */
  timeoutMs?: number;
  onDelivered?: (event: JournalEvent, target: string, status: number) => void;
  onRetry?: (event: JournalEvent, target: string, problem: string, delayMs: number) => void;
  /** HTTPS_PROXY, HTTP_PROXY and NO_PROXY, for targets that are not on this machine. */
  proxy?: ProxyEnvironment;
}

export type PostResult = { ok: true; status: number } | { ok: false; problem: string };

interface TargetQueue {
  events: JournalEvent[];
  running: Promise<void> | undefined;
}

export class Forwarder {
  private readonly queues = new Map<string, TargetQueue>();
  private readonly stop = new AbortController();
  private readonly agent: Transport;
  private readonly backoff: BackoffPolicy;
  private readonly timeoutMs: number;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: ForwarderOptions = {}) {
    this.backoff = { initialMs: 500, maxMs: 30_000, ...options.backoff };
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.agent = newTransport(options.proxy, { keepAliveTimeout: 4_000 });
  }

  /** Queues an event for each of the given targets. */
  enqueue(event: JournalEvent, targets: readonly string[]): void {
    if (this.stop.signal.aborted) return;
    for (const target of targets) {
      let queue = this.queues.get(target);
      if (!queue) {
        queue = { events: [], running: undefined };
        this.queues.set(target, queue);
      }
      queue.events.push(event);
      queue.running ??= this.drain(target, queue).finally(() => {
        if (queue) queue.running = undefined;
      });
    }
  }

  /** Events queued and not yet delivered, over all targets. */
  get backlog(): number {
    let count = 0;
    for (const queue of this.queues.values()) count += queue.events.length;
    return count;
  }

  /** Resolves once every queued event has been delivered. */
  async idle(): Promise<void> {
    for (;;) {
      const running = [...this.queues.values()].flatMap((q) => (q.running ? [q.running] : []));
      if (running.length === 0) return;
      await Promise.all(running);
    }
  }

  /** Stops at once: attempts in flight are abandoned and stay undelivered in the journal. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.stop.abort();
      await Promise.all([...this.queues.values()].map((q) => q.running));
      await this.agent.close();
    })();
    return this.closing;
  }

  private async drain(target: string, queue: TargetQueue): Promise<void> {
    for (let event = queue.events[0]; event !== undefined; event = queue.events[0]) {
      if (!(await this.deliver(event, target))) return;
      queue.events.shift();
    }
  }

  /** Tries until the target answers 2xx (true) or the forwarder stops (false). */
  private async deliver(event: JournalEvent, target: string): Promise<boolean> {
    const signal = this.stop.signal;
    for (let attempt = 0; !signal.aborted; attempt++) {
      const result = await postEvent(target, event, { timeoutMs: this.timeoutMs, signal, transport: this.agent, proxy: this.options.proxy });
      if (result.ok) {
        // A marker that cannot be written (the journal failed) only means the event is
        // forwarded again after a restart: forwarding is at-least-once either way.
        await this.options.markDelivered?.(event.id, target).catch(() => undefined);
        this.options.onDelivered?.(event, target, result.status);
        return true;
      }
      if (signal.aborted) break;
      const delay = backoffDelay(attempt, this.backoff);
      this.options.onRetry?.(event, target, result.problem, delay);
      await sleep(delay, signal);
    }
    return false;
  }
}

export interface PostOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Direct, or through the proxy (src/api/connections.ts). */
  transport: Transport;
  /** The proxy the transport goes through, to name its failures as every request does. */
  proxy?: ProxyEnvironment;
}

/**
 * POSTs the event's original `{hook, data}` body to a target once; `hook.target` without its
 * `?token=`, the listener's secret (journals written before kept it: src/webhooks/hook-target.ts).
 */
export async function postEvent(
  target: string,
  event: Pick<JournalEvent, 'id' | 'hook' | 'data'>,
  options: PostOptions,
): Promise<PostResult> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  try {
    const url = new URL(target);
    const response = await options.transport.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': `merch/${VERSION}`,
        // Lets a target drop a repeat: forwarding is at-least-once.
        'x-merch-event-id': String(event.id),
      },
      body: JSON.stringify({ hook: hookWithoutToken(event.hook), data: event.data }),
      signal: options.signal ? AbortSignal.any([timeout, options.signal]) : timeout,
    });
    await response.body.text();
    const status = response.statusCode;
    return status >= 200 && status < 300 ? { ok: true, status } : { ok: false, problem: `answered ${status}` };
  } catch (error) {
    if (timeout.aborted) return { ok: false, problem: `no answer within ${options.timeoutMs} ms` };
    const proxied = proxyFailure(error, new URL(target), options.proxy);
    return { ok: false, problem: proxied ? describeFailure(proxied) : describeError(error) };
  }
}

function hookWithoutToken(hook: JournalEvent['hook']): JournalEvent['hook'] {
  const target = withoutToken(hook.target);
  return target === hook.target ? hook : { ...hook, target };
}

function describeError(error: unknown): string {
  const err = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err.code === 'ECONNREFUSED' || err.cause?.code === 'ECONNREFUSED') return 'connection refused';
  return err.cause?.message ?? err.message ?? String(error);
}
