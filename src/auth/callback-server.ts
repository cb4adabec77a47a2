import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CliError, ExitCode, UsageError } from '../errors.js';

export const CALLBACK_HOST = '127.0.0.1';

/** What the browser is shown once the callback was handled. */
export interface CallbackPage {
  status: number;
  title: string;
  text: string;
}

/** How the first callback was handled: the page for the browser, the outcome for the CLI. */
export interface Handled<T> {
  page: CallbackPage;
  outcome: T;
}

export interface CallbackServer<T> {
  /** `http://127.0.0.1:PORT/callback`: the redirect URI, registered with the app exactly so. */
  redirectUri: string;
  /** The outcome of the first request to /callback, once the browser has its page. */
  received: Promise<T>;
  close(): Promise<void>;
}

/**
 * The one-shot loopback endpoint of `merch login --web`. The first GET of /callback is
 * handed to `handle`, whose page the browser shows; anything else gets 404, and a second
 * callback 409. Listens on 127.0.0.1 only.
 */
export async function startCallbackServer<T>(port: number, handle: (query: URLSearchParams) => Handled<T>): Promise<CallbackServer<T>> {
  let done = false;
  let resolveReceived!: (outcome: T) => void;
  const received = new Promise<T>((resolve) => (resolveReceived = resolve));

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', `http://${CALLBACK_HOST}`);
    if (request.method !== 'GET' || url.pathname !== '/callback') return page(response, { status: 404, title: 'Not found', text: 'This is the sign-in callback of merch login.' });
    if (done) return page(response, { status: 409, title: 'Already received', text: 'merch has already received a sign-in. Return to your terminal.' });
    done = true;
    const handled = handle(url.searchParams);
    page(response, handled.page);
    resolveReceived(handled.outcome);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new UsageError(`--callback-port ${port}: the port is in use on ${CALLBACK_HOST}`, 'stop what uses it, or pick another port registered with the app')
          : new CliError(`could not start the sign-in callback: ${error.message}`, ExitCode.failed),
      );
    });
    server.listen(port, CALLBACK_HOST, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    redirectUri: `http://${CALLBACK_HOST}:${actual}/callback`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function page(response: ServerResponse, { status, title, text }: CallbackPage): void {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>merch: ${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36em;margin:4em auto;padding:0 1em;color:#222}h1{font-size:1.4em}</style>
</head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p><p>You can close this tab.</p></body></html>
`;
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', connection: 'close' });
  response.end(html);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
