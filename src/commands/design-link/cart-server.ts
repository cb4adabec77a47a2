import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CliError, ExitCode, UsageError } from '../../errors.js';

/** What the page in the browser says once the cart was handled (or not). */
export interface CartOutcome<T> {
  value: T;
  /** One line for the browser, e.g. "custom product 12 created". */
  summary: string;
}

export interface CartServerOptions<T> {
  /** 0: any free port. */
  port: number;
  /** `host:port` that `fe_cart_url` must point at: the design tool's. */
  allowedHost: string;
  /** Completes the cart; runs at most once. */
  complete(feCartUrl: string): Promise<CartOutcome<T>>;
}

export interface CartServer<T> {
  /** The cart URL to give the design tool: `http://127.0.0.1:PORT/cart`. */
  cartUrl: string;
  /** Settles once the browser came back and the cart was completed, or refused. */
  result: Promise<T>;
  /** Whether a cart request is being handled (a timeout should then let it finish). */
  busy(): boolean;
  close(): Promise<void>;
}

export const CART_HOST = '127.0.0.1';

/**
 * The one-shot cart endpoint of `design-link --wait`, on loopback only. The design tool
 * sends the browser to it with `fe_cart_url`; any path is accepted, because the real
 * provider's registered cart URL may have its own. Requests without `fe_cart_url`
 * (favicon, probes) get 404; an `fe_cart_url` of another host than the design tool's is
 * refused with 400 and never sent to the service.
 */
export async function startCartServer<T>(options: CartServerOptions<T>): Promise<CartServer<T>> {
  let state: 'waiting' | 'busy' | 'done' = 'waiting';
  let settle!: { resolve(value: T): void; reject(error: unknown): void };
  const result = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
  result.catch(() => undefined); // settled before anyone awaits it: not unhandled

  const server = createServer((request, response) => {
    void handle(request, response).catch(() => response.destroy());
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', `http://${CART_HOST}`);
    const feCartUrl = url.searchParams.get('fe_cart_url');
    if (request.method !== 'GET') return page(response, 405, 'Method not allowed', 'This endpoint only takes the browser coming back from the design tool.');
    if (feCartUrl === null) return page(response, 404, 'Not found', 'This is the merch cart endpoint; it waits for the design tool.');
    if (state !== 'waiting') return page(response, 409, 'Already received', 'The design was already handed to merch. Return to your terminal.');
    state = 'busy';

    const refusal = checkCartUrl(feCartUrl, options.allowedHost);
    if (refusal) {
      await page(response, 400, 'Refused', `${refusal}. Nothing was sent to the service. Return to your terminal.`);
      state = 'done';
      settle.reject(new CliError(`refused the fe_cart_url the browser brought back: ${refusal}`, ExitCode.refused, 'if your design tool really returns another host, set --design-tool-url to it; or complete by hand with `merch custom-products from-cart FE_CART_URL`'));
      return;
    }
    try {
      const outcome = await options.complete(feCartUrl);
      await page(response, 200, 'Done', `${outcome.summary}. Return to your terminal.`);
      state = 'done';
      settle.resolve(outcome.value);
    } catch (error) {
      await page(response, 502, 'Failed', 'The custom product could not be completed: see your terminal.');
      state = 'done';
      settle.reject(error);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE'
        ? new UsageError(`--cart-port ${options.port}: the port is in use on ${CART_HOST}`, 'stop what uses it, or pick another port (for the real provider it must match the registered cart URL)')
        : new CliError(`could not start the cart endpoint: ${error.message}`, ExitCode.failed));
    });
    server.listen(options.port, CART_HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    cartUrl: `http://${CART_HOST}:${port}/cart`,
    result,
    busy: () => state === 'busy',
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Why this `fe_cart_url` must not be sent to the service, or undefined when it may. */
export function checkCartUrl(feCartUrl: string, allowedHost: string): string | undefined {
  let url: URL;
  try {
    url = new URL(feCartUrl);
  } catch {
    return 'fe_cart_url is not a URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `fe_cart_url is not an http(s) URL (${url.protocol})`;
  if (url.host.toLowerCase() !== allowedHost.toLowerCase()) return `fe_cart_url points at ${url.host}, not at the design tool (${allowedHost})`;
  return undefined;
}

function page(response: ServerResponse, status: number, title: string, text: string): Promise<void> {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>merch: ${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36em;margin:4em auto;padding:0 1em;color:#222}h1{font-size:1.4em}</style>
</head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p><p>You can close this tab.</p></body></html>
`;
  return new Promise((resolve) => {
    response.writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': Buffer.byteLength(html),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      connection: 'close',
    });
    response.end(html, () => resolve());
  });
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
