import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';
import { ApiClient, type ClientOptions } from '../../src/api/client.js';

export interface TinyServer {
  url: string;
  requests: { method: string; url: string; headers: IncomingMessage['headers'] }[];
}

/** A throwaway HTTP server on 127.0.0.1:0 for tests of the client itself, closed when the test ends. */
export async function tinyServer(handler: (req: IncomingMessage, res: ServerResponse, n: number) => void): Promise<TinyServer> {
  const requests: TinyServer['requests'] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => handler(req, res, requests.length));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${port}`, requests };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** An API client for a test, its pool closed when the test ends. */
export function testClient(options: ClientOptions): ApiClient {
  const client = new ApiClient(options);
  onTestFinished(() => client.close());
  return client;
}
