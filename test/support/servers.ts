import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';
import { forwardingProxy, type ForwardingProxy } from './forwarding-proxy.js';

/**
 * A proxy in front of the sandbox that can rewrite JSON responses, to play a server that
 * changed between two requests (a race) without touching the CLI.
 */
export function rewritingProxy(target: string, rewrite: (method: string, path: string, body: any) => any): Promise<ForwardingProxy> {
  return forwardingProxy(target, {
    onAnswer: ({ method, path }, answer) => {
      if (answer.body.length > 0 && String(answer.headers['content-type']).includes('json')) {
        answer.body = Buffer.from(JSON.stringify(rewrite(method, path, JSON.parse(answer.body.toString('utf8')))));
      }
      return 'pass';
    },
  });
}

/** Starts `server` on a free loopback port; it closes (its connections too) when the test ends. */
export async function listenForTest(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A port nothing listens on (bound once, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
