import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Delivery } from '../../src/contract/delivery.js';

/** A delivery as the service sends it. */
export function delivery(event: string, data: Record<string, unknown>, hookId = 1): Delivery {
  return { hook: { id: hookId, event, target: 'http://127.0.0.1/hook' }, data };
}

export interface Received {
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local target that records what it receives and answers `status()`. */
export interface Target {
  url: string;
  port: number;
  received: Received[];
  status: () => number;
  close: () => Promise<void>;
}

export async function startTarget(status: () => number = () => 204, port = 0): Promise<Target> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const code = status();
      if (code >= 200 && code < 300) {
        received.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      }
      res.writeHead(code).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    received,
    status,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
