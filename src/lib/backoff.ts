/**
 * The one retry schedule of the project: exponential backoff with equal jitter, a
 * `Retry-After` reader, and a sleep that an AbortSignal ends early. The API client, the
 * webhook forwarder, order waiters and the sandbox's deliveries all use these.
 */

export interface BackoffPolicy {
  /** The ceiling of the first retry's delay. */
  initialMs: number;
  /** No delay is longer than this. */
  maxMs: number;
  /** Randomise within the upper half of the ceiling (default true), so retries of many clients spread out. */
  jitter?: boolean;
}

/** The delay before retry `attempt` (0-based): between half and all of min(max, initial * 2^attempt). */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random = Math.random): number {
  const ceiling = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(attempt, 30));
  if (policy.jitter === false) return ceiling;
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** A `Retry-After` header (seconds or an HTTP date) in ms, capped; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now(), capMs = 60_000): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - now;
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(capMs, Math.max(0, ms));
}

/** Resolves after `ms`, or at once when `signal` aborts (it never rejects). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
