import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { exitCodeOf } from '../../src/commands/exit-codes.js';
import { json, testClient, tinyServer, type TinyServer } from './tiny-server.js';

let server: TinyServer | undefined;

function clientFor(url: string, overrides: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}): ApiClient {
  return testClient({ baseUrl: url, token: 'secret-token', timeoutMs: 2000, retries: 3, insecure: false, retryBaseMs: 1, ...overrides });
}

describe('ApiClient', () => {
  it('sends the auth, account, accept and user-agent headers', async () => {
    server = await tinyServer((_req, res) => json(res, 200, { ok: true }));
    const data = await clientFor(server.url, { accountId: 'acme' }).get('/v1/x', { a: 1, b: undefined });
    expect(data).toEqual({ ok: true });
    const request = server.requests[0]!;
    expect(request.url).toBe('/v1/x?a=1');
    expect(request.headers.authorization).toBe('Bearer secret-token');
    expect(request.headers['sc-account-id']).toBe('acme');
    expect(request.headers.accept).toBe('application/json');
    expect(request.headers['user-agent']).toMatch(/^merch\//);
  });

  it('retries 503 and 429 (honouring Retry-After) on GET, then succeeds', async () => {
    server = await tinyServer((_req, res, n) => {
      if (n === 1) return json(res, 503, { detail: 'busy' });
      if (n === 2) return json(res, 429, { detail: 'slow down' }, { 'retry-after': '0' });
      json(res, 200, { n });
    });
    const response = await clientFor(server.url).request({ method: 'GET', path: '/v1/x' });
    expect(response.data).toEqual({ n: 3 });
    expect(response.attempts).toBe(3);
  });

  it('does not retry a POST', async () => {
    server = await tinyServer((_req, res) => json(res, 503, { detail: 'busy' }));
    await expect(clientFor(server.url).request({ method: 'POST', path: '/v1/orders/', body: {} })).rejects.toMatchObject({ kind: 'server', status: 503 });
    expect(server.requests).toHaveLength(1);
  });

  it('says how many attempts were made when retries run out', async () => {
    server = await tinyServer((_req, res) => json(res, 502, { message: 'bad gateway' }));
    const error = await clientFor(server.url, { retries: 2 }).get('/v1/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('GET /v1/x failed: 502 Bad Gateway (after 3 attempts)');
    expect(server.requests).toHaveLength(3);
  });

  it('retries a dropped connection', async () => {
    server = await tinyServer((req, res, n) => {
      if (n === 1) return req.socket.destroy();
      json(res, 200, { ok: n });
    });
    expect(await clientFor(server.url).get('/v1/x')).toEqual({ ok: 2 });
  });

  it.each([
    [401, { detail: 'Invalid token.' }, 3, 'Invalid token.'],
    [403, 'Forbidden', 3, 'Forbidden'],
    [404, '<html><body><h1>Not Found</h1></body></html>', 4, 'Not Found'],
    [409, { detail: 'default method', order_id: 3 }, 5, 'default method'],
    [400, { 'shipping_orders[0].recipient.city': ['required'] }, 5, 'shipping_orders[0].recipient.city: required'],
    [422, { error: { message: 'nope' } }, 5, 'nope'],
    [500, '', 1, ''],
  ])('maps %i with body %j to exit %i', async (status, body, exitCode, message) => {
    server = await tinyServer((_req, res) => {
      res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/html' : 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    });
    const error = (await clientFor(server.url, { retries: 0 }).get('/v1/x').catch((e: unknown) => e)) as ApiError;
    expect(exitCodeOf(error)).toBe(exitCode);
    expect(error.status).toBe(status);
    if (message) expect(error.message).toContain(message);
    expect(error.message).not.toContain('secret-token');
  });

  it('times out a slow response', async () => {
    server = await tinyServer(() => undefined);
    const error = (await clientFor(server.url, { retries: 0, timeoutMs: 200 }).get('/v1/slow').catch((e: unknown) => e)) as ApiError;
    expect(error.kind).toBe('network');
    expect(error.message).toContain('no answer within 200 ms (--timeout)');
  });

  it('rejects a response that does not match the schema, and non-JSON', async () => {
    server = await tinyServer((_req, res, n) => (n === 1 ? json(res, 200, { id: 'x' }) : res.end('plain')));
    const { z } = await import('zod');
    const c = clientFor(server.url);
    await expect(c.get('/v1/a', undefined, z.object({ id: z.number() }))).rejects.toThrow(/^GET \/v1\/a failed: malformed answer \(200\): id: /);
    await expect(c.get('/v1/b')).rejects.toThrow("GET /v1/b failed: malformed answer (200): not JSON, it starts with 'plain'");
  });

  it('refuses to send the token over plain http to a non-loopback host, or to another origin', async () => {
    const c = clientFor('http://api.example.test');
    await expect(c.get('/v1/x')).rejects.toMatchObject({ name: 'RequestNotSent', reason: 'token-over-http' });
    server = await tinyServer((_req, res) => json(res, 200, {}));
    await expect(clientFor(server.url).get('http://other.example.test/v1/x')).rejects.toMatchObject({
      name: 'RequestNotSent',
      reason: 'token-to-other-origin',
      message: expect.stringMatching(/not the base URL/),
    });
    expect(server.requests).toHaveLength(0);
  });
});
