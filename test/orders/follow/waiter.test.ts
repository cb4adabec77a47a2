import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors.js';
import { waitForOrder } from '../../../src/orders/follow/waiter.js';

// The waiter's verdict on a service that never answers: it failed for the whole wait.

const serverError = () => new ApiError('GET /v1/orders/5 failed: 500 Server Error', 'server', 500, '', undefined, false, { type: 'status', status: 500, title: 'Server Error', message: '' });

describe('waitForOrder against a service that never answers', () => {
  it('times out having failed for all of the max wait, never a little less', async () => {
    for (let round = 0; round < 20; round++) {
      const result = await waitForOrder({
        orderId: '5',
        until: 'shipped',
        fetchOrder: () => Promise.reject(serverError()),
        maxWaitMs: 30,
        intervalMs: 5,
        interrupted: new AbortController().signal,
      });
      expect(result.outcome).toBe('timed-out');
      expect(result.answered).toBe(false);
      expect(result.failing?.forMs, `round ${round}`).toBeGreaterThanOrEqual(30);
      expect(result.failing?.last.status).toBe(500);
    }
  });
});
