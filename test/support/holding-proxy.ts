import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A proxy in front of a sandbox that stops one request where a test wants a process to die:
 * `before` it reaches the sandbox (nothing was done), or `after` the sandbox answered (the
 * work is done, the answer never comes). Every other request passes. `held` resolves once
 * the chosen request is held there, so a test kills the process on a condition, not after a
 * guessed time.
 */

export type HoldAt = 'before' | 'after';

export interface HoldingProxy {
  url: string;
  /** `METHOD /path` of every request seen, in order of arrival. */
  seen: string[];
  /** Resolves with the held request's `METHOD /path` once it is held. */
  held: Promise<string>;
  close(): Promise<void>;
}

/** `hold(method, path, index)` (index: 1-based arrival order) says which request to hold, and where; only the first it names is held. */
export async function holdingProxy(target: string, hold: (method: string, path: string, index: number) => HoldAt | undefined): Promise<HoldingProxy> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  const seen: string[] = [];
  let heldOne = false;
  let onHeld: (what: string) => void = () => undefined;
  const held = new Promise<string>((resolve) => (onHeld = resolve));
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', target).pathname;
    const what = `${req.method} ${path}`;
    seen.push(what);
    // one request is held: the first one `hold` names
    const where = heldOne ? undefined : hold(req.method ?? '', path, seen.length);
    if (where) heldOne = true;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (where === 'before') return onHeld(what);
      const forward = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host, connection: 'close' } },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () => {
            if (where === 'after') return onHeld(what);
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
    seen,
    held,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
