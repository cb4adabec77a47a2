import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A proxy in front of a sandbox through which a test decides the fate of each request:
 * `onRequest` sees it whole before it is passed on and may hold it there (never forwarded,
 * never answered: nothing was done); `onAnswer` sees the sandbox's answer (the work is
 * done) and may pass it, hold it (the answer never comes) or cut the connection (a network
 * failure after the server committed). The one proxy behind holdingProxy and lossyProxy.
 */

export type RequestFate = 'forward' | 'hold';
export type AnswerFate = 'pass' | 'hold' | 'cut';

/** One request through the proxy, the same object in both hooks. */
export interface ProxiedRequest {
  method: string;
  path: string;
}

export interface ProxyHooks {
  onRequest?(request: ProxiedRequest): RequestFate;
  onAnswer?(request: ProxiedRequest, status: number): AnswerFate;
}

export interface ForwardingProxy {
  url: string;
  close(): Promise<void>;
}

export async function forwardingProxy(target: string, hooks: ProxyHooks): Promise<ForwardingProxy> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const proxied: ProxiedRequest = { method: req.method ?? '', path: new URL(req.url ?? '/', target).pathname };
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (hooks.onRequest?.(proxied) === 'hold') return;
      const forward = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: proxied.method, path: req.url, headers: { ...req.headers, host: upstream.host, connection: 'close' } },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () => {
            const fate = hooks.onAnswer?.(proxied, answer.statusCode ?? 502) ?? 'pass';
            if (fate === 'hold') return;
            if (fate === 'cut') return void req.socket.destroy();
            const headers = { ...answer.headers };
            delete headers['transfer-encoding'];
            delete headers.connection;
            res.writeHead(answer.statusCode ?? 502, headers);
            res.end(Buffer.concat(body));
          });
        },
      );
      forward.on('error', () => req.socket.destroy());
      forward.end(Buffer.concat(chunks));
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
