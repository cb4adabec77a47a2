import { readFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Delivery } from '../../src/contract/delivery.js';
import { EventJournal } from '../../src/webhooks/event-journal.js';
import { MAX_BODY_BYTES, startReceiver, type Receiver, type ReceiverOptions, type Rejection } from '../../src/webhooks/receiver.js';
import { waitFor } from '../support/wait-for.js';
import { tempDir } from '../support/temp-dir.js';
import { delivery } from './helpers.js';

interface Setup {
  receiver: Receiver;
  journal: EventJournal;
  file: string;
  rejections: Rejection[];
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A receiver wired to a journal the way `webhooks listen` wires them. */
async function setup(options: Partial<ReceiverOptions> = {}): Promise<Setup> {
  const file = join(tempDir('merch-webhooks-'), 'events.jsonl');
  const journal = await EventJournal.open(file);
  const rejections: Rejection[] = [];
  const receiver = await startReceiver({
    port: 0,
    accept: async (d) => {
      await journal.append(d);
    },
    onRejected: (r) => rejections.push(r),
    ...options,
  });
  cleanups.push(() => journal.close(), () => receiver.close(100));
  return { receiver, journal, file, rejections };
}

function post(url: string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

async function journaled(file: string): Promise<{ id: number; event: string; data: Record<string, unknown> }[]> {
  const text = await readFile(file, 'utf8');
  return text === '' ? [] : text.trimEnd().split('\n').map((l) => JSON.parse(l));
}

/** Sends raw bytes on a new connection; resolves with everything received once it closes. */
function rawConnection(url: string): { socket: Socket; received: () => string; closed: Promise<string> } {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  let received = '';
  socket.on('data', (d) => (received += d.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  return { socket, received: () => received, closed };
}

describe('receiver', () => {
  it('listens on loopback, journals a valid delivery, and answers 204 after it is on disk', async () => {
    const { receiver, file } = await setup();
    expect(receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(receiver.target).toBe(receiver.url);
    const sent: Delivery = { hook: { id: 3, event: 'order.changed', target: 'x', extra: 1 } as Delivery['hook'], data: { id: 42 } };
    const res = await post(receiver.url, sent);
    expect(res.status).toBe(204);
    const records = await journaled(file);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ id: 1, event: 'order.changed', hook: sent.hook, data: { id: 42 } });
  });

  it('does not answer before accept has resolved', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let accepting = false;
    const { receiver } = await setup({
      accept: () => {
        accepting = true;
        return gate;
      },
    });
    let answered = false;
    const res = post(receiver.url, delivery('order.created', {})).then((r) => {
      answered = true;
      return r;
    });
    await waitFor(() => accepting);
    expect(answered).toBe(false);
    release();
    expect((await res).status).toBe(204);
  });

  it('refuses a body over 1 MiB with 413, declared or streamed, and keeps running', async () => {
    const { receiver, file, rejections } = await setup();
    const big = JSON.stringify(delivery('order.changed', { pad: 'x'.repeat(MAX_BODY_BYTES) }));
    const declared = await post(receiver.url, 'x'.repeat(MAX_BODY_BYTES + 1)).catch((e: Error) => e);
    // A Response of whichever class the global fetch uses (the sandbox's server library replaces it).
    expect('status' in declared ? declared.status : declared.message).toBe(413);

    const { socket, closed } = rawConnection(receiver.url);
    socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
    socket.write(`${big.length.toString(16)}\r\n${big}\r\n`);
    expect(await closed).toMatch(/^HTTP\/1\.1 413 /);

    expect(rejections.map((r) => r.status)).toEqual([413, 413]);
    expect(rejections[0]?.reason).toBe('body over 1048576 bytes');
    expect((await post(receiver.url, delivery('order.created', { id: 1 }))).status).toBe(204);
    expect(await journaled(file)).toHaveLength(1);
  });

  it('refuses with 403 what a web page can post: an Origin header, or a body not declared JSON', async () => {
    const { receiver, file, rejections } = await setup();
    const event = delivery('order.changed', { id: 6 });
    const statuses = [
      await post(receiver.url, event, { headers: { 'content-type': 'text/plain' } }),
      await post(receiver.url, event, { headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      await post(receiver.url, event, { headers: { 'content-type': 'application/json', origin: 'https://evil.example' } }),
    ].map((res) => res.status);
    expect(statuses).toEqual([403, 403, 403]);
    expect(rejections.map((r) => `${r.status} ${r.reason}`)).toEqual([
      '403 content type text/plain is not JSON',
      '403 content type application/x-www-form-urlencoded is not JSON',
      '403 sent by a web page (Origin: https://evil.example)',
    ]);
    expect((await post(receiver.url, event, { headers: { 'content-type': 'application/json; charset=utf-8' } })).status).toBe(204);
    expect(await journaled(file)).toHaveLength(1);
  });

  it('answers 400 to a body that is not JSON', async () => {
    const { receiver, file, rejections } = await setup();
    const res = await post(receiver.url, '{"hook": \u001b[31m');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'body is not JSON' });
    expect(rejections).toEqual([{ status: 400, reason: 'body is not JSON', remote: '127.0.0.1' }]);
    expect(await journaled(file)).toHaveLength(0);
  });

  it('answers 422 to JSON that is not a delivery, naming the field', async () => {
    const { receiver, file, rejections } = await setup();
    const res = await post(receiver.url, { hook: { id: 'x', event: 'order.changed', target: 't' }, data: {} });
    expect(res.status).toBe(422);
    expect(rejections[0]?.reason).toMatch(/^not a delivery: hook\.id: /);
    expect((await post(receiver.url, [1, 2])).status).toBe(422);
    expect(await journaled(file)).toHaveLength(0);
  });

  it('answers 422 to an id that is not a safe integer, and keeps unknown keys of a delivery', async () => {
    const { receiver, file, rejections } = await setup();
    const unsafe = '{"hook":{"id":9007199254740993,"event":"order.changed","target":"t"},"data":{}}';
    expect((await post(receiver.url, unsafe)).status).toBe(422);
    expect(rejections[0]?.reason).toMatch(/^not a delivery: hook\.id: /);
    expect((await post(receiver.url, { hook: { id: 1, event: 'order.changed', target: 't', extra: true }, data: { a: [1] } })).status).toBe(204);
    expect((await journaled(file)).map((r) => r.data)).toEqual([{ a: [1] }]);
  });

  it('accepts JSON nested 512 levels below the top and refuses 513, brackets in strings aside', async () => {
    const { receiver, file, rejections } = await setup();
    // `[` and `{` and an escaped quote inside strings are text, not nesting.
    const nested = (levels: number): string =>
      `{"hook":{"id":1,"event":"order.changed","target":"[[{\\"{"},"data":{"x":${'['.repeat(levels - 2)}"]]\\"[{"${']'.repeat(levels - 2)}}}`;
    expect((await post(receiver.url, nested(512))).status).toBe(204);
    expect((await post(receiver.url, nested(513))).status).toBe(422);
    expect(rejections.map((r) => r.reason)).toEqual(['not a delivery: JSON nested deeper than 512 levels']);
    expect(await journaled(file)).toHaveLength(1);
  });

  it('accepts a shallow delivery with more brackets than the depth allowed', async () => {
    const { receiver, file, rejections } = await setup();
    const siblings = Array.from({ length: 600 }, () => ({ a: [] }));
    const body = JSON.stringify({ hook: { id: 1, event: 'order.changed', target: '{'.repeat(600) }, data: { siblings } });
    expect((await post(receiver.url, body)).status).toBe(204);
    expect(rejections).toEqual([]);
    expect((await journaled(file)).map((r) => (r.data as { siblings: unknown[] }).siblings.length)).toEqual([600]);
  });

  it('reads the path and the token as a URL parser does', async () => {
    const { receiver, file, rejections } = await setup({ path: '/hooks', secret: 'a b&c' });
    /** POSTs on a raw connection, so the request target goes out exactly as written. */
    const rawPost = async (target: string, id: number): Promise<string> => {
      const body = JSON.stringify(delivery('order.created', { id }));
      const { socket, closed } = rawConnection(receiver.url);
      socket.write(`POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
      return (await closed).split('\r\n')[0]!;
    };
    expect(await rawPost('/./hooks?token=a%20b%26c', 1)).toBe('HTTP/1.1 204 No Content');
    expect(await rawPost('/hooks?token=a+b%26c#fragment', 2)).toBe('HTTP/1.1 204 No Content');
    expect(await rawPost('/hooks?token=a+b%26c&token=other', 3)).toBe('HTTP/1.1 204 No Content');
    expect(await rawPost('/hooks?token=a+b&c', 4)).toBe('HTTP/1.1 401 Unauthorized');
    expect(await rawPost('/hooks/?token=a+b%26c', 5)).toBe('HTTP/1.1 404 Not Found');
    expect(await rawPost('/%68ooks?token=a+b%26c', 6)).toBe('HTTP/1.1 404 Not Found');
    expect(rejections.map((r) => r.reason)).toEqual(['wrong ?token=', 'no receiver at /hooks/', 'no receiver at /%68ooks']);
    expect((await journaled(file)).map((r) => r.data['id'])).toEqual([1, 2, 3]);
  });

  it('answers 404 to another path and 405 to another method', async () => {
    const { receiver, rejections } = await setup({ path: '/hooks' });
    expect(receiver.url).toMatch(/\/hooks$/);
    expect((await post(receiver.url.replace('/hooks', '/other'), delivery('order.created', {}))).status).toBe(404);
    const get = await fetch(receiver.url);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await post(receiver.url, delivery('order.created', {}))).status).toBe(204);
    expect(rejections.map((r) => r.status)).toEqual([404, 405]);
  });

  it('every method but POST is 405 (Allow: POST), the right token and a valid delivery notwithstanding: nothing journaled, no CORS answer', async () => {
    // Issue 41, the listener's doors: a GET that lists events, a PUT or DELETE that changes
    // them, an OPTIONS preflight that lets a web page post: none is a door.
    const { receiver, file, rejections } = await setup({ path: '/hooks', secret: 'door-secret' });
    const body = JSON.stringify(delivery('order.changed', { id: 9 }));
    /** `method` to the target with the token, a delivery as its body (none for HEAD), as a web page's preflight would ask. */
    const send = (method: string): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> =>
      new Promise((resolve, reject) => {
        const sent = httpRequest(receiver.target, {
          method,
          headers: { 'content-type': 'application/json', 'access-control-request-method': 'POST', ...(method === 'HEAD' ? {} : { 'content-length': Buffer.byteLength(body) }) },
        });
        sent.on('response', (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
        });
        sent.on('error', reject);
        sent.end(method === 'HEAD' ? undefined : body);
      });
    const methods = ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'];
    for (const method of methods) {
      const answer = await send(method);
      expect(answer.status, method).toBe(405);
      expect(answer.headers.allow, method).toBe('POST');
      expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-')), method).toEqual([]);
      expect(answer.text, method).not.toContain('door-secret');
    }
    expect(rejections.map((r) => `${r.status} ${r.reason}`)).toEqual(methods.map((method) => `405 method ${method} not allowed`));
    expect(await journaled(file)).toEqual([]);
    // The door that is one: the same delivery, POSTed.
    expect((await post(receiver.target, body)).status).toBe(204);
    expect((await journaled(file)).map((r) => r.data['id'])).toEqual([9]);
  });

  it('with a secret, accepts only deliveries carrying ?token=SECRET', async () => {
    const { receiver, file, rejections } = await setup({ secret: 's3cr&t' });
    expect(receiver.target).toBe(`${receiver.url}?token=s3cr%26t`);
    expect((await post(receiver.url, delivery('order.created', { id: 1 }))).status).toBe(401);
    expect((await post(`${receiver.url}?token=wrong`, delivery('order.created', { id: 2 }))).status).toBe(401);
    expect((await post(receiver.target, delivery('order.created', { id: 3 }))).status).toBe(204);
    expect(rejections.map((r) => r.reason)).toEqual(['missing ?token=', 'wrong ?token=']);
    expect((await journaled(file)).map((r) => r.data['id'])).toEqual([3]);
  });

  it('answers 204 to event kinds outside the filter without passing them on', async () => {
    const { receiver, file } = await setup({ events: new Set(['order.changed']) });
    expect((await post(receiver.url, delivery('shipping_order.changed', { id: 1 }))).status).toBe(204);
    expect((await post(receiver.url, delivery('order.changed', { id: 2 }))).status).toBe(204);
    expect((await journaled(file)).map((r) => r.event)).toEqual(['order.changed']);
  });

  it('answers 503 when the event cannot be saved, so the sender retries', async () => {
    const { receiver, rejections } = await setup({
      accept: () => Promise.reject(new Error('disk full')),
    });
    expect((await post(receiver.url, delivery('order.created', {}))).status).toBe(503);
    expect(rejections[0]?.reason).toBe('could not save the event: disk full');
  });

  it('drops a client that never finishes its body while valid events keep flowing', async () => {
    const { receiver, file, rejections } = await setup({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const slow = rawConnection(receiver.url);
    slow.socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"hook"');
    const silent = rawConnection(receiver.url);
    const started = Date.now();

    for (let i = 0; i < 5; i++) {
      expect((await post(receiver.url, delivery('order.changed', { id: i }))).status).toBe(204);
    }
    const [slowAnswer] = await Promise.all([slow.closed, silent.closed]);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(slowAnswer).toMatch(/^HTTP\/1\.1 408 /);
    expect(rejections.filter((r) => r.status === 408).length).toBeGreaterThanOrEqual(1);
    expect(rejections.some((r) => r.status === 0)).toBe(false);
    expect(await journaled(file)).toHaveLength(5);
  });

  it('survives a connection aborted mid-body and mid-headers', async () => {
    const { receiver, file, rejections } = await setup();
    const midBody = rawConnection(receiver.url);
    // With Expect: 100-continue, the server says "100 Continue" once it has the headers and
    // reads the body: part of the body then goes, and the connection with it.
    midBody.socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\nExpect: 100-continue\r\n\r\n');
    await waitFor(() => /^HTTP\/1\.1 100 /.test(midBody.received()), 'the receiver to read the headers (100 Continue)');
    await new Promise((resolve) => midBody.socket.write('{"hook":{', resolve));
    midBody.socket.destroy();
    const midHeaders = rawConnection(receiver.url);
    midHeaders.socket.write('POST / HTTP/1.1\r\nHost');
    midHeaders.socket.destroy();
    const garbage = rawConnection(receiver.url);
    garbage.socket.write('\u0000\u0001 not http\r\n\r\n');
    expect(await garbage.closed).toMatch(/^HTTP\/1\.1 400 /);

    await waitFor(() => rejections.some((r) => r.status === 0));
    expect(rejections.find((r) => r.status === 0)?.reason).toBe('connection closed before the body was complete');
    expect((await post(receiver.url, delivery('order.created', { id: 1 }))).status).toBe(204);
    expect(await journaled(file)).toHaveLength(1);
  });

  it('journals 50 concurrent deliveries exactly once each, with unique ids', async () => {
    const { receiver, file } = await setup();
    const statuses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => post(receiver.url, delivery('order.changed', { id: i })).then((r) => r.status)),
    );
    expect(statuses.every((s) => s === 204)).toBe(true);
    const records = await journaled(file);
    expect(records).toHaveLength(50);
    expect(new Set(records.map((r) => r.id)).size).toBe(50);
    expect(records.map((r) => r.data['id']).sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: 50 }, (_, i) => i),
    );
  });

  it('reports a port in use instead of crashing', async () => {
    const { receiver } = await setup();
    const port = Number(new URL(receiver.url).port);
    await expect(startReceiver({ port, accept: async () => undefined })).rejects.toThrow(/EADDRINUSE/);
  });
});
