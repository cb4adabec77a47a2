import type { Delivery } from '../contract/delivery.js';
import { backoffDelay } from '../lib/backoff.js';

/** Webhook deliveries: POSTed as JSON, timeout 5 s, up to 5 tries with exponential backoff. */
export const DELIVERY_TIMEOUT_MS = 5000;
export const MAX_TRIES = 5;

export class Deliveries {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly aborter = new AbortController();

  constructor(
    private readonly retryBaseMs: number,
    private readonly log: (line: string) => void,
  ) {}

  send(delivery: Delivery): void {
    void this.attempt(delivery, 1);
  }

  /** Stops retries and aborts deliveries in flight. */
  close(): void {
    this.aborter.abort();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private async attempt(delivery: Delivery, attempt: number): Promise<void> {
    if (this.aborter.signal.aborted) return;
    const failure = await this.post(delivery, attempt);
    if (failure === null || this.aborter.signal.aborted) return;
    const where = `${delivery.hook.event} to ${delivery.hook.target}`;
    if (attempt >= MAX_TRIES) {
      this.log(`webhook ${where} failed (${failure}); gave up after ${MAX_TRIES} tries`);
      return;
    }
    const delay = backoffDelay(attempt - 1, { initialMs: this.retryBaseMs, maxMs: this.retryBaseMs * 2 ** MAX_TRIES, jitter: false });
    this.log(`webhook ${where} failed (${failure}); retry ${attempt + 1} in ${delay} ms`);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(delivery, attempt + 1);
    }, delay);
    this.timers.add(timer);
  }

  /** null on a 2xx answer, otherwise what went wrong. Never throws. */
  private async post(delivery: Delivery, attempt: number): Promise<string | null> {
    try {
      const response = await fetch(delivery.hook.target, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'merch-sandbox',
          'x-sandbox-delivery-attempt': String(attempt),
        },
        body: JSON.stringify(delivery),
        signal: AbortSignal.any([this.aborter.signal, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]),
      });
      await response.body?.cancel();
      return response.ok ? null : `HTTP ${response.status}`;
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      return cause ?? (error instanceof Error ? error.message : String(error));
    }
  }
}
