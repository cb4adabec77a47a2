import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A proxy in front of a sandbox through which a test sees, and decides the fate of, each
 * request: `onRequest` sees it whole before it is passed on and may hold it there (never
 * forwarded, never answered: nothing was done); `onAnswer` sees the sandbox's answer (the
 * work is done) and may pass it (with its body rewritten if the test replaces it), hold it
 * (the answer never comes) or cut the connection (a network failure after the server
 * committed). The one proxy behind every proxy of the tests (recording, rewriting, holding,
 * lossy).
 *
 * It forwards with `node:http` on a connection of its own per request (`connection: close`),
 * never through the process's shared fetch pool: a test's proxy then never hands a request
 * to a socket that an earlier test's server closed.
 */

export type RequestFate = 'forward' | 'hold';
export type AnswerFate = 'pass' | 'hold' | 'cut';

/** One request through the proxy, the same object in both hooks. */
export interface ProxiedRequest {
  method: string;
  /** The path without its query. */
  path: string;
  /** The path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The sandbox's answer; `onAnswer` may replace `body`. */
export interface ProxiedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface ProxyHooks {
  onRequest?(request: ProxiedRequest): RequestFate;
  onAnswer?(request: ProxiedRequest, answer: ProxiedAnswer): AnswerFate;
}

export interface ForwardingProxy {
  url: string;
  close(): Promise<void>;
}

export async function forwardingProxy(target: string, hooks: ProxyHooks = {}): Promise<ForwardingProxy> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = req.url ?? '/';
      const proxied: ProxiedRequest = { method: req.method ?? '', path: new URL(url, target).pathname, url, headers: req.headers, body: Buffer.concat(chunks) };
      if (hooks.onRequest?.(proxied) === 'hold') return;
      const forward = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: proxied.method, path: url, headers: { ...req.headers, host: upstream.host, connection: 'close' } },
        (response) => {
          const body: Buffer[] = [];
          response.on('data', (chunk: Buffer) => body.push(chunk));
          response.on('end', () => {
            const answer: ProxiedAnswer = { status: response.statusCode ?? 502, headers: response.headers, body: Buffer.concat(body) };
            const fate = hooks.onAnswer?.(proxied, answer) ?? 'pass';
            if (fate === 'hold') return;
            if (fate === 'cut') return void req.socket.destroy();
            const headers = { ...answer.headers, 'content-length': String(answer.body.length) };
            delete headers['transfer-encoding'];
            delete headers.connection;
            res.writeHead(answer.status, headers);
            res.end(answer.body);
          });
        },
      );
      forward.on('error', () => req.socket.destroy());
      forward.end(proxied.body);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
