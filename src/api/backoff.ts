/** Exponential backoff with full jitter: a random delay in [0, min(cap, base * 2^attempt)]. */
export function backoffDelay(attempt: number, baseMs = 100, capMs = 5_000, random = Math.random): number {
  return Math.round(random() * Math.min(capMs, baseMs * 2 ** attempt));
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

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
