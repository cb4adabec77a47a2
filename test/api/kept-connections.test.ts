import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { testClient } from './tiny-server.js';

// A kept-alive connection the server cut as a request went out on it (node:http's
// `reusedSocket`; the server closed it while idle): a read is sent again at once on a new
// connection, not counted as a retry; a POST is not sent again by the client, and the
// look-up that follows goes out on a new connection (src/api/direct-transport.ts, client.ts).

interface Answered {
  method: string;
  url: string;
  /** The number of the connection it came on (1, 2, ...: in order of opening). */
  connection: number;
  headers: IncomingMessage['headers'];
}

/**
 * A server that answers the first request of each connection and resets (RST) the
 * connection of any later one unanswered, as `merch sandbox --reset-reused` does. `resetAll`:
 * every request is reset, the first too.
 */
async function resettingServer(answer: (req: IncomingMessage, res: ServerResponse) => void, { resetAll = false } = {}) {
  const numbers = new WeakMap<Socket, number>();
  const served = new WeakSet<Socket>();
  const answered: Answered[] = [];
  const resets: { method: string; url: string; connection: number }[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    const connection = numbers.get(req.socket)!;
    if (resetAll || served.has(req.socket)) {
      resets.push({ method: req.method ?? '', url: req.url ?? '', connection });
      req.on('error', () => undefined);
      req.socket.resetAndDestroy();
      return;
    }
    served.add(req.socket);
    answered.push({ method: req.method ?? '', url: req.url ?? '', connection, headers: req.headers });
    req.resume();
    req.on('end', () => answer(req, res));
  });
  server.on('connection', (socket: Socket) => numbers.set(socket, ++connections));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, answered, resets, connections: () => connections };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

describe('a kept connection cut as a request went out on it', () => {
  it('a read is sent again at once on a new connection, not counted as a retry (--retries 0 too)', async () => {
    const server = await resettingServer((req, res) => json(res, 200, { path: req.url }));
    const client = testClient({ baseUrl: server.url, token: 't', timeoutMs: 5000, retries: 0, insecure: false });
    const responses = [];
    for (const page of [1, 2, 3, 4]) responses.push(await client.request({ method: 'GET', path: '/v1/orders', query: { page } }));

    expect(responses.map((response) => [response.status, response.attempts, (response.data as { path: string }).path])).toEqual(
      [1, 2, 3, 4].map((page) => [200, 1, `/v1/orders?page=${page}`]),
    );
    // Pages 2 and 4 went out on the kept connection of the page before, were cut, and were sent again.
    expect(server.resets.map((reset) => [reset.url, reset.connection])).toEqual([
      ['/v1/orders?page=2', 1],
      ['/v1/orders?page=4', 3],
    ]);
    // Each resend on a connection never used before, of its own (closed after the answer).
    expect(server.answered.map((request) => [request.url, request.connection, request.headers.connection])).toEqual([
      ['/v1/orders?page=1', 1, 'keep-alive'],
      ['/v1/orders?page=2', 2, 'close'],
      ['/v1/orders?page=3', 3, 'keep-alive'],
      ['/v1/orders?page=4', 4, 'close'],
    ]);
    expect(server.connections()).toBe(4);
  });

  it('a connection cut under a new connection is no such case: one attempt with --retries 0', async () => {
    const server = await resettingServer((_req, res) => json(res, 200, {}), { resetAll: true });
    const client = testClient({ baseUrl: server.url, token: 't', timeoutMs: 5000, retries: 0, insecure: false });
    const error = await client.request({ method: 'GET', path: '/v1/orders' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).failure).toEqual({ type: 'closed' });
    expect(server.resets).toHaveLength(1);
  });

  it('a POST is not sent again; the look-up after it goes out on a new connection and works; a later POST goes on a connection of its own', async () => {
    const server = await resettingServer((req, res) => (req.method === 'POST' ? json(res, 201, { id: 7 }) : json(res, 200, { count: 0, next: null, results: [] })));
    const client = testClient({ baseUrl: server.url, token: 't', timeoutMs: 5000, retries: 3, insecure: false });
    await client.request({ method: 'GET', path: '/v1/payment-methods/' });

    const error = await client.request({ method: 'POST', path: '/v1/orders/', body: { external_id: 'x' } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    // Closed: the order may have been made (a look-up follows, never a blind resend).
    expect([(error as ApiError).failure, (error as ApiError).kind, (error as ApiError).message]).toEqual([
      { type: 'closed' },
      'network',
      'POST /v1/orders/ failed: connection closed by the server before it answered',
    ]);
    expect(server.resets.map((reset) => reset.method)).toEqual(['POST']);

    const lookUp = await client.request({ method: 'GET', path: '/v1/orders', query: { external_id: 'x' } });
    expect(lookUp.attempts).toBe(1);
    const resent = await client.request({ method: 'POST', path: '/v1/orders/', body: { external_id: 'x' } });
    expect([resent.status, resent.data]).toEqual([201, { id: 7 }]);

    // The look-up on a new connection, answered at once (no reset); the POST on one of its own.
    expect(server.resets).toHaveLength(1);
    expect(server.answered.map((request) => [request.method, request.connection, request.headers.connection])).toEqual([
      ['GET', 1, 'keep-alive'],
      ['GET', 2, 'keep-alive'],
      ['POST', 3, 'close'],
    ]);
  });
});
