import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  attempt: string | undefined;
  body: any;
}

/** A real webhook target: records deliveries; `failFirst` paths answer 500 once. */
export async function startListener(failFirst: string[] = []): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const failed = new Set<string>();
  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, attempt: request.headers['x-sandbox-delivery-attempt'] as string | undefined, body: JSON.parse(text) });
      const fail = failFirst.includes(path) && !failed.has(path);
      if (fail) failed.add(path);
      response.writeHead(fail ? 500 : 204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
