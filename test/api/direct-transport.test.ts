import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { newTransport } from '../../src/api/connections.js';
import { DirectTransport } from '../../src/api/direct-transport.js';
import { connectionFailure } from '../../src/api/errors.js';
import type { Transport } from '../../src/api/transport.js';

// src/api/direct-transport.ts: merch's direct connections over node:http. The client's
// failures over the wire are test/api/failures.test.ts's and the failure matrix's; these
// are the transport's own promises: bodies whole and decoded, lengths sent, connections
// kept and reused, a cut body or an abort reaching the reader, close() waiting.

interface Seen {
  method: string;
  headers: IncomingMessage['headers'];
  body: string;
  socket: Socket;
}

async function server(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ origin: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const http = createHttpServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', headers: req.headers, body, socket: req.socket });
      answer(req, res);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => (http.closeAllConnections(), http.close(() => resolve()))));
  return { origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, seen };
}

/** A server that writes `raw` bytes on each connection, then ends it. */
async function rawServer(raw: string): Promise<string> {
  const tcp = createTcpServer((socket) => {
    socket.once('data', () => socket.end(raw));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => tcp.close(() => resolve())));
  return `http://127.0.0.1:${(tcp.address() as AddressInfo).port}`;
}

function transport(make: () => Transport = () => new DirectTransport({ connections: 4 })): Transport {
  const made = make();
  onTestFinished(() => made.close());
  return made;
}

describe('the direct transport (node:http)', () => {
  it('gives the status, the headers and the body decoded as UTF-8, a leading BOM dropped, a character cut between chunks whole', async () => {
    const text = 'Zoë ✓ 𝄞';
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ text }))]);
    const { origin } = await server((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-many': ['a', 'b'] });
      // one byte at a time: every multi-byte character is cut
      for (const byte of bytes) res.write(Buffer.from([byte]));
      res.end();
    });
    const answer = await transport().request({ origin, method: 'GET', path: '/v1/x?a=1', headers: { accept: 'application/json' } });
    expect(answer.statusCode).toBe(201);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(JSON.parse(await answer.body.text())).toEqual({ text });
  });

  it('sends the body with its length in bytes, and a POST without a body as length 0', async () => {
    const { origin, seen } = await server((_req, res) => res.end());
    const t = transport();
    await (await t.request({ origin, method: 'POST', path: '/v1/orders/', headers: { 'content-type': 'application/json' }, body: '{"name":"Zoë"}' })).body.text();
    await (await t.request({ origin, method: 'POST', path: '/v1/orders/1/cancel/', headers: {} })).body.text();
    await (await t.request({ origin, method: 'GET', path: '/v1/orders/', headers: {} })).body.text();
    expect(seen.map((s) => [s.method, s.headers['content-length'], s.headers['transfer-encoding'], s.body])).toEqual([
      ['POST', '15', undefined, '{"name":"Zoë"}'],
      ['POST', '0', undefined, ''],
      ['GET', undefined, undefined, ''],
    ]);
  });

  it('keeps a connection for the next request to the same origin', async () => {
    const { origin, seen } = await server((_req, res) => res.end('{}'));
    const t = transport();
    for (let i = 0; i < 3; i++) await (await t.request({ origin, method: 'GET', path: `/v1/x/${i}`, headers: {} })).body.text();
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((s) => s.socket)).size).toBe(1);
  });

  it('opens at most `connections` connections to an origin at once', async () => {
    const waiting: ServerResponse[] = [];
    const { origin, seen } = await server((_req, res) => void waiting.push(res));
    const t = transport(() => new DirectTransport({ connections: 2 }));
    const answers = Array.from({ length: 5 }, (_, i) => t.request({ origin, method: 'GET', path: `/v1/x/${i}`, headers: {} }));
    await expect.poll(() => waiting.length, { timeout: 10_000 }).toBe(2);
    while (seen.length < 5) {
      const next = waiting.shift();
      if (next) next.end('{}');
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (const res of waiting) res.end('{}');
    for (const answer of answers) expect(await (await answer).body.text()).toBe('{}');
    expect(new Set(seen.map((s) => s.socket)).size).toBe(2);
  });

  it('a body cut by the server before its length rejects its reader, as a closed connection', async () => {
    const origin = await rawServer('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"count": 3, "resu');
    const answer = await transport().request({ origin, method: 'GET', path: '/v1/orders/', headers: {} });
    expect(answer.statusCode).toBe(200);
    const thrown = await answer.body.text().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(connectionFailure(thrown, 'host')).toEqual({ type: 'closed' });
  });

  it('an abort while the body comes rejects its reader; one before the answer rejects the request', async () => {
    const { origin } = await server((req, res) => {
      if (req.url === '/headers-only') res.writeHead(200, { 'content-type': 'application/json' }).write('{"a":');
    });
    const t = transport();
    const midBody = new AbortController();
    const answer = await t.request({ origin, method: 'GET', path: '/headers-only', headers: {}, signal: midBody.signal });
    midBody.abort();
    // (the client tells an abort of its own from a cut by its signal: test/api/failures.test.ts)
    await expect(answer.body.text()).rejects.toThrow();
    const beforeAnswer = new AbortController();
    const request = t.request({ origin, method: 'GET', path: '/never', headers: {}, signal: beforeAnswer.signal });
    beforeAnswer.abort();
    await expect(request).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('close() waits for the requests under way, then ends the connections', async () => {
    const waiting: ServerResponse[] = [];
    const { origin, seen } = await server((_req, res) => void waiting.push(res));
    const t = new DirectTransport({});
    const answer = t.request({ origin, method: 'GET', path: '/slow', headers: {} });
    await expect.poll(() => waiting.length, { timeout: 10_000 }).toBe(1);
    let closed = false;
    const closing = t.close().then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    waiting[0]!.end('{"late":true}');
    expect(await (await answer).body.text()).toBe('{"late":true}');
    await closing;
    await expect.poll(() => seen[0]!.socket.destroyed, { timeout: 10_000 }).toBe(true);
  });

  it('a refused connection rejects the request with ECONNREFUSED', async () => {
    // a port nothing listens on: one just given up
    const tcp = createTcpServer();
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(tcp.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => tcp.close(() => resolve()));
    const thrown = await transport()
      .request({ origin, method: 'GET', path: '/', headers: {} })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(connectionFailure(thrown, 'host')).toEqual({ type: 'refused', host: 'host' });
  });

  it('newTransport() goes direct when no proxy is set, and to loopback even when one is', async () => {
    const { origin, seen } = await server((_req, res) => res.end('{}'));
    expect(transport(() => newTransport(undefined))).toBeInstanceOf(DirectTransport);
    const proxied = transport(() => newTransport({ http: { url: 'http://127.0.0.1:9', variable: 'HTTP_PROXY' }, noProxy: '' }));
    expect(await (await proxied.request({ origin, method: 'GET', path: '/v1/x', headers: {} })).body.text()).toBe('{}');
    expect(seen).toHaveLength(1);
  });
});
