import { ApiError, isPassing } from '../../api/errors.js';
import { backoffDelay } from '../../lib/backoff.js';
import type { Clock } from './ports.js';
import type { ServiceHealth } from './service-health.js';

export interface PollOptions {
  intervalMs: number;
  /** Whose time the waits between polls take. */
  clock: Clock;
  /** Polling stops when it aborts (max wait passed, Ctrl-C, or another source finished). */
  signal: AbortSignal;
  /** Told of every answer and of every failure that polling outlives. */
  health?: ServiceHealth;
  random?: () => number;
}

/** A failed poll worth polling again: 429, 5xx, no answer or a cut connection, once the client's own retries are spent. */
export function isTransient(error: unknown): error is ApiError {
  return error instanceof ApiError && isPassing(error.failure);
}

/** Each wait between polls is the interval give or take 10 %, so many waiters do not poll in step. */
const JITTER = 0.1;
/** After failures in a row the wait doubles, up to this many intervals. */
const MAX_BACKOFF_INTERVALS = 8;

/**
 * Calls `fetch` until `visit` of its result returns true or the signal aborts. A poll
 * in flight when the signal aborts is abandoned. The API client has already retried a
 * 429 (after its `Retry-After`), a 502/503/504 or a dropped connection; when those
 * retries are spent, polling backs off (exponentially, with jitter) and goes on. Any
 * other error (a refused connection, an unknown host, 401, 403, 404, a malformed
 * answer, ...) will not pass by waiting: it is thrown at once.
 */
export async function poll<T>(fetch: () => Promise<T>, visit: (value: T) => boolean, options: PollOptions): Promise<void> {
  const { intervalMs, clock, signal, random = Math.random } = options;
  let failures = 0;
  while (!signal.aborted) {
    let waitMs: number;
    try {
      const value = await abandonOnAbort(fetch(), signal);
      if (value === ABORTED) return;
      options.health?.answered();
      if (visit(value.result)) return;
      failures = 0;
      waitMs = Math.round(intervalMs * (1 - JITTER + 2 * JITTER * random()));
    } catch (error) {
      if (!isTransient(error)) throw error;
      const backoff = backoffDelay(failures++, { initialMs: intervalMs * 2, maxMs: intervalMs * MAX_BACKOFF_INTERVALS }, random);
      // A 429's Retry-After is a floor: polling sooner would only be throttled again.
      waitMs = Math.max(backoff, error.failure?.type === 'status' ? (error.failure.retryAfterMs ?? 0) : 0);
      options.health?.failed(error, waitMs);
    }
    await clock.sleep(waitMs, signal);
  }
}

export const ABORTED = Symbol('aborted');

/** The work's result, or ABORTED as soon as the signal aborts (the work is abandoned, its failure ignored). */
export function abandonOnAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<{ result: T } | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve, reject) => {
    const abort = () => resolve(ABORTED);
    signal.addEventListener('abort', abort, { once: true });
    work.then(
      (result) => resolve({ result }),
      (error: unknown) => (signal.aborted ? resolve(ABORTED) : reject(error)),
    ).finally(() => signal.removeEventListener('abort', abort));
  });
}
