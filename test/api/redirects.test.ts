import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { json, testClient, tinyServer } from './tiny-server.js';

// A service behind Django answers `/v1/orders` with a 301 to `/v1/orders/`; a moved path
// answers 301 or 308. Reads follow them on the same origin, writes only 307 and 308.

function clientFor(url: string) {
  return testClient({ baseUrl: url, token: 'secret-token', timeoutMs: 2000, retries: 0, insecure: false });
}

describe('redirects', () => {
  it.each([301, 302, 303, 307, 308])('a GET follows a same-origin %i, with the token', async (status) => {
    const server = await tinyServer((req, res) => {
      if (req.url === '/v1/orders') return void res.writeHead(status, { location: '/v1/orders/' }).end();
      json(res, 200, { results: [] });
    });
    expect(await clientFor(server.url).get('/v1/orders')).toEqual({ results: [] });
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/orders', '/v1/orders/']);
    expect(server.requests[1]!.headers.authorization).toBe('Bearer secret-token');
  });

  it.each([307, 308])('a POST follows a same-origin %i with its method and body', async (status) => {
    const server = await tinyServer((req, res) => {
      if (req.url === '/v1/orders') return void res.writeHead(status, { location: `${server.url}/v1/orders/` }).end();
      json(res, 201, { id: 1 });
    });
    const response = await clientFor(server.url).request({ method: 'POST', path: '/v1/orders', body: { a: 1 } });
    expect(response.status).toBe(201);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /v1/orders', 'POST /v1/orders/']);
    expect(server.requests[1]!.headers['content-type']).toBe('application/json');
    expect(server.requests[1]!.headers['content-length']).toBe(String(JSON.stringify({ a: 1 }).length));
  });

  it.each([301, 302, 303])('a POST does not follow a %i: the error names the Location', async (status) => {
    const server = await tinyServer((_req, res) => void res.writeHead(status, { location: '/v1/orders/' }).end());
    const error = (await clientFor(server.url).request({ method: 'POST', path: '/v1/orders', body: {} }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe(`POST /v1/orders failed: ${status}: redirected to ${server.url}/v1/orders/, not followed (a POST follows only a 307 or 308)`);
    expect(server.requests).toHaveLength(1);
  });

  it('never follows a redirect to another origin, and names it', async () => {
    const other = await tinyServer((_req, res) => json(res, 200, { stolen: true }));
    const server = await tinyServer((_req, res) => void res.writeHead(302, { location: `${other.url}/v1/x` }).end());
    const error = (await clientFor(server.url).get('/v1/x').catch((e: unknown) => e)) as ApiError;
    expect(error.message).toContain(`redirected to ${other.url}/v1/x, not followed (another origin than ${server.url})`);
    expect(error.hint).toContain(other.url);
    expect(other.requests).toHaveLength(0);
  });

  it('stops after 5 redirects', async () => {
    const server = await tinyServer((_req, res, n) => void res.writeHead(302, { location: `/v1/x/${n}` }).end());
    const error = (await clientFor(server.url).get('/v1/x').catch((e: unknown) => e)) as ApiError;
    expect(error.message).toContain('not followed (more than 5 redirects)');
    expect(server.requests).toHaveLength(6);
  });

  it('a redirect without a Location is the error it was', async () => {
    const server = await tinyServer((_req, res) => void res.writeHead(302).end());
    const error = (await clientFor(server.url).get('/v1/x').catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe('GET /v1/x failed: 302');
  });
});
