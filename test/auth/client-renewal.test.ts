import { describe, expect, it } from 'vitest';
import type { TokenProvider } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { exitCodeOf } from '../../src/commands/exit-codes.js';
import { json, testClient, tinyServer } from '../api/tiny-server.js';

// The client's side of a renewable token, against real HTTP: a 401 gets one renewal and
// one more try (a POST too: a 401 means it was not processed), never a loop.

/** Tokens t1, t2, ...: each renewal hands out the next one. */
function renewable(): TokenProvider & { renewals: string[] } {
  let current = 't1';
  const renewals: string[] = [];
  return {
    renewals,
    current: async () => current,
    async renewAfterRejection(rejected) {
      renewals.push(rejected);
      current = `t${Number(current.slice(1)) + 1}`;
      return current;
    },
  };
}

describe('a renewable token in the API client', () => {
  it('a 401 is renewed once and the request (a POST too) sent again with the new token', async () => {
    const server = await tinyServer((req, res) => (req.headers.authorization === 'Bearer t1' ? json(res, 401, { detail: 'expired' }) : json(res, 201, { ok: true })));
    const token = renewable();
    const client = testClient({ baseUrl: server.url, token, timeoutMs: 2000, retries: 0, insecure: false });
    const response = await client.request({ method: 'POST', path: '/v1/orders/', body: { a: 1 } });
    expect(response).toMatchObject({ status: 201, attempts: 1 });
    expect(token.renewals).toEqual(['t1']);
    expect(server.requests.map((request) => request.headers.authorization)).toEqual(['Bearer t1', 'Bearer t2']);
  });

  it('a 401 to the renewed token is the answer: exit 3, no second renewal', async () => {
    const server = await tinyServer((_req, res) => json(res, 401, { detail: 'Authentication credentials were not provided.' }));
    const token = renewable();
    const client = testClient({ baseUrl: server.url, token, timeoutMs: 2000, retries: 3, insecure: false });
    const error = await client.request({ method: 'GET', path: '/v1/orders' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(exitCodeOf(error as ApiError)).toBe(3);
    expect(token.renewals).toEqual(['t1']);
    expect(server.requests).toHaveLength(2);
  });

  it("DRF's 403 of a refused token (no challenge, SessionAuthentication first) is renewed once as a 401 is; a second is the answer", async () => {
    const refused = { detail: 'Authentication credentials were not provided.' };
    const server = await tinyServer((req, res) => (req.headers.authorization === 'Bearer t2' ? json(res, 200, []) : json(res, 403, refused)));
    const token = renewable();
    const client = testClient({ baseUrl: server.url, token, timeoutMs: 2000, retries: 3, insecure: false });
    expect(await client.request({ method: 'GET', path: '/v1/orders' })).toMatchObject({ status: 200, attempts: 1 });
    expect(server.requests.map((request) => request.headers.authorization)).toEqual(['Bearer t1', 'Bearer t2']);

    const always = await tinyServer((_req, res) => json(res, 403, refused));
    const again = renewable();
    const error = await testClient({ baseUrl: always.url, token: again, timeoutMs: 2000, retries: 3, insecure: false })
      .request({ method: 'GET', path: '/v1/orders' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(exitCodeOf(error as ApiError)).toBe(3);
    expect(again.renewals).toEqual(['t1']);
    expect(always.requests).toHaveLength(2);
  });

  it('a 403 of permission is not a refused token: no renewal, one request', async () => {
    const server = await tinyServer((_req, res) => json(res, 403, { detail: 'You do not have permission to perform this action.' }));
    const token = renewable();
    const client = testClient({ baseUrl: server.url, token, timeoutMs: 2000, retries: 3, insecure: false });
    await expect(client.request({ method: 'GET', path: '/v1/orders' })).rejects.toMatchObject({ status: 403, kind: 'auth' });
    expect(token.renewals).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('a fixed token is never renewed: one request', async () => {
    const server = await tinyServer((_req, res) => json(res, 401, { detail: 'Invalid token.' }));
    const client = testClient({ baseUrl: server.url, token: 'fixed', timeoutMs: 2000, retries: 3, insecure: false });
    await expect(client.request({ method: 'GET', path: '/v1/orders' })).rejects.toBeInstanceOf(ApiError);
    expect(server.requests).toHaveLength(1);
  });
});
