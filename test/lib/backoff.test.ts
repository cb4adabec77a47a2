import { describe, expect, it } from 'vitest';
import { backoffDelay, retryAfterMs, sleep } from '../../src/lib/backoff.js';

describe('backoffDelay', () => {
  it('grows exponentially up to the cap, with jitter in the upper half', () => {
    const options = { initialMs: 100, maxMs: 1_000 };
    for (let i = 0; i < 20; i++) {
      const first = backoffDelay(0, options);
      expect(first).toBeGreaterThanOrEqual(50);
      expect(first).toBeLessThanOrEqual(100);
      const third = backoffDelay(2, options);
      expect(third).toBeGreaterThanOrEqual(200);
      expect(third).toBeLessThanOrEqual(400);
      const capped = backoffDelay(40, options);
      expect(capped).toBeGreaterThanOrEqual(500);
      expect(capped).toBeLessThanOrEqual(1_000);
    }
  });

  it('without jitter is the ceiling itself', () => {
    const policy = { initialMs: 500, maxMs: 4_000, jitter: false };
    expect([0, 1, 2, 3, 4].map((attempt) => backoffDelay(attempt, policy))).toEqual([500, 1_000, 2_000, 4_000, 4_000]);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates, caps them, and ignores what it cannot read', () => {
    expect(retryAfterMs('3')).toBe(3_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:10 GMT', Date.parse('2026-01-01T00:00:00Z'))).toBe(10_000);
    expect(retryAfterMs('9999')).toBe(60_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});

describe('sleep', () => {
  it('ends at once when its signal aborts', async () => {
    const controller = new AbortController();
    const slept = sleep(60_000, controller.signal);
    controller.abort();
    await expect(slept).resolves.toBeUndefined();
  });
});
