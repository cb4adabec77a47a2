import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { onTestFinished } from 'vitest';

/**
 * The one proxy of the tests, on a loopback port, closed when the test ends. Of two kinds:
 *
 * - in front of a service (`target`, a sandbox): a request for a path is passed on to it;
 * - as HTTPS_PROXY and HTTP_PROXY name one at a company (`hosts`: squid, a corporate
 *   gateway): `CONNECT host:port` opens a tunnel (https), a request for an absolute URL is
 *   forwarded (plain http). It resolves only the names in `hosts` (`service.test` ->
 *   `127.0.0.1`), which nothing else on the machine resolves: a request that reached a
 *   service by such a name went through it. With `credentials`, anything else is answered
 *   407, as a proxy that asks for authentication.
 *
 * Every request is recorded (`seen`, `requests`). Through the hooks a test decides the fate
 * of each: `onRequest` sees it whole before it is passed on, and may change its `url`, hold
 * it there (never forwarded, never answered: nothing was done) or answer it itself (a
 * refusal the service never saw); `onAnswer` sees the service's answer (the work is done)
 * and may pass it (with its body rewritten if the test replaces it), hold it (the answer
 * never comes), cut the connection (a network failure after the server committed), or pass
 * it as the service's last (then the proxy closes: every later connection is refused).
 *
 * It forwards with `node:http` on a connection of its own per request (`connection: close`),
 * never through the process's shared fetch pool: a test's proxy then never hands a request
 * to a socket that an earlier test's server closed.
 */

/** An answer the proxy gives itself, instead of the service's. */
export interface OwnAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export type RequestFate = 'forward' | 'hold' | OwnAnswer;
export type AnswerFate = 'pass' | 'hold' | 'cut' | 'last';

/** One request through the proxy, the same object in both hooks. */
export interface ProxiedRequest {
  method: string;
  /** The path without its query. */
  path: string;
  /** The path and query, as sent; `onRequest` may change it, and the changed one is forwarded. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The service's answer; `onAnswer` may replace `body`. */
export interface ProxiedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface ProxyOptions {
  /** The service in front of which the proxy stands (a sandbox's URL). */
  target?: string;
  /** As HTTPS_PROXY/HTTP_PROXY: the names the proxy resolves, to the address it connects to instead (the port is kept). */
  hosts?: Record<string, string>;
  /** `user:password`: anything else is answered 407. */
  credentials?: string;
  onRequest?(request: ProxiedRequest): RequestFate;
  onAnswer?(request: ProxiedRequest, answer: ProxiedAnswer): AnswerFate;
}

export interface Proxy {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** What came, in order, as it came: `GET /v1/orders?limit=1`, `CONNECT service.test:443`, `GET http://service.test:80/v1/x`. */
  seen: string[];
  /** Every request but a tunnel's, whole, in order. */
  requests: ProxiedRequest[];
  /** Closes it before the test ends (it is closed then anyway). */
  close(): Promise<void>;
}

export async function startProxy(options: ProxyOptions): Promise<Proxy> {
  const seen: string[] = [];
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  const authorised = (request: IncomingMessage) =>
    options.credentials === undefined || request.headers['proxy-authorization'] === `Basic ${Buffer.from(options.credentials).toString('base64')}`;
  const resolveHost = (host: string) => options.hosts?.[host.toLowerCase()];

  const server: Server = createServer((req, res) => {
    const received = req.url ?? '/';
    seen.push(`${req.method} ${received}`);
    const absolute = /^https?:\/\//.test(received);
    if (absolute && !authorised(req)) return void res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
    // Where it goes: the host the URL names (resolved by `hosts`), or the target.
    const destination = absolute ? new URL(received) : new URL(received, options.target ?? 'http://proxy.invalid');
    const address = absolute ? resolveHost(destination.hostname) : options.target === undefined ? undefined : destination.hostname;
    if (address === undefined) return void res.writeHead(502).end(`cannot resolve ${destination.hostname}`);
    const headers: IncomingHttpHeaders = { ...req.headers, connection: 'close' };
    if (absolute) {
      delete headers['proxy-authorization'];
      delete headers['proxy-connection'];
    } else headers.host = destination.host;

    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const proxied: ProxiedRequest = { method: req.method ?? '', path: destination.pathname, url: destination.pathname + destination.search, headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(proxied);
      const fate = options.onRequest?.(proxied) ?? 'forward';
      if (fate === 'hold') return;
      if (fate !== 'forward') return void res.writeHead(fate.status, { 'content-type': 'application/json', ...fate.headers }).end(fate.body ?? '');
      const forward = httpRequest({ host: address, port: destination.port || 80, method: proxied.method, path: proxied.url, headers }, (response) => {
        const body: Buffer[] = [];
        response.on('data', (chunk: Buffer) => body.push(chunk));
        response.on('end', () => {
          const answer: ProxiedAnswer = { status: response.statusCode ?? 502, headers: response.headers, body: Buffer.concat(body) };
          const fate = options.onAnswer?.(proxied, answer) ?? 'pass';
          if (fate === 'hold') return;
          if (fate === 'cut') return void req.socket.destroy();
          const answerHeaders = { ...answer.headers, 'content-length': String(answer.body.length) };
          delete answerHeaders['transfer-encoding'];
          delete answerHeaders.connection;
          res.writeHead(answer.status, answerHeaders);
          res.end(answer.body, () => {
            if (fate === 'last') void close();
          });
        });
      });
      forward.on('error', () => req.socket.destroy());
      forward.end(proxied.body);
    });
  });

  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${request.url}`);
    sockets.add(client);
    client.on('error', () => undefined);
    if (!authorised(request)) return void client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n');
    const [host = '', port = '443'] = (request.url ?? '').split(/:(?=\d+$)/);
    const address = resolveHost(host);
    if (address === undefined) return void client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    const upstream = connect(Number(port), address, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
  });

  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(close);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, requests, close };
}

/** A proxy in front of `target` that rewrites its JSON answers, to play a server that changed between two requests (a race) without touching the CLI. */
export function rewritingProxy(target: string, rewrite: (method: string, path: string, body: any) => any): Promise<Proxy> {
  return startProxy({
    target,
    onAnswer: ({ method, path }, answer) => {
      if (answer.body.length > 0 && String(answer.headers['content-type']).includes('json')) {
        answer.body = Buffer.from(JSON.stringify(rewrite(method, path, JSON.parse(answer.body.toString('utf8')))));
      }
      return 'pass';
    },
  });
}

export type HoldAt = 'before' | 'after';

export interface HoldingProxy extends Proxy {
  /** Resolves with the held request's `METHOD /path` once it is held. */
  held: Promise<string>;
}

/**
 * A proxy in front of `target` that stops one request where a test wants a process to die:
 * `before` it reaches the service (nothing was done), or `after` the service answered (the
 * work is done, the answer never comes). Every other request passes. `held` resolves once
 * the chosen request is held there, so a test kills the process on a condition, not after
 * a guessed time. `hold(method, path, index)` (index: 1-based arrival order) says which
 * request to hold, and where; only the first it names is held.
 */
export async function holdingProxy(target: string, hold: (method: string, path: string, index: number) => HoldAt | undefined): Promise<HoldingProxy> {
  let heldOne: { request: ProxiedRequest; where: HoldAt } | undefined;
  let onHeld: (what: string) => void = () => undefined;
  const held = new Promise<string>((resolve) => (onHeld = resolve));
  const holds = (request: ProxiedRequest, where: HoldAt): boolean => {
    if (heldOne?.request !== request || heldOne.where !== where) return false;
    onHeld(`${request.method} ${request.path}`);
    return true;
  };
  const proxy: Proxy = await startProxy({
    target,
    onRequest: (request) => {
      const where = heldOne ? undefined : hold(request.method, request.path, proxy.requests.length);
      if (where) heldOne = { request, where };
      return holds(request, 'before') ? 'hold' : 'forward';
    },
    onAnswer: (request) => (holds(request, 'after') ? 'hold' : 'pass'),
  });
  return { ...proxy, held };
}
