import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeHtml } from './escape-html.js';

// The one-shot loopback endpoint a browser comes back to: `login --web`'s callback and
// `design-link --wait`'s cart. It answers the browser with a small page and hands the
// caller the outcome of the return it waited for.

export const LOOPBACK_HOST = '127.0.0.1';

/** A page for the browser; with `location`, a redirect there (the status a 3xx). */
export interface Page {
  status: number;
  title: string;
  text: string;
  location?: string;
}

/** How one return of the browser was answered. */
export interface Answer<T> {
  page: Page;
  /** The end of the wait, a value or an error; absent, the return is ignored and the server waits on. */
  outcome?: { value: T } | { error: unknown };
}

export interface LoopbackServerOptions<T> {
  /** 0: any free port. */
  port: number;
  /** The page of a request that is not the browser's return (a favicon, a probe, another method), or undefined when it is one. */
  notTheReturn(method: string, url: URL): Page | undefined;
  /** Answers a return, one at a time. */
  handle(url: URL): Answer<T> | Promise<Answer<T>>;
  /** What a return is told while another is being handled, or once the wait is over (409). */
  alreadyReceived: string;
}

export interface LoopbackServer<T> {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** The value of the outcome, or its error. */
  result: Promise<T>;
  /** Whether a return is being handled right now (a timeout should let it finish). */
  busy(): boolean;
  close(): Promise<void>;
}

/** The endpoint could not listen on its port; `inUse` when something else holds it. */
export class ListenError extends Error {
  constructor(
    readonly port: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'ListenError';
  }

  get inUse(): boolean {
    return this.code === 'EADDRINUSE';
  }
}

/** Listens on 127.0.0.1 only, until a return ends the wait. */
export async function startLoopbackServer<T>(options: LoopbackServerOptions<T>): Promise<LoopbackServer<T>> {
  let state: 'waiting' | 'busy' | 'done' = 'waiting';
  let settle!: { resolve(value: T): void; reject(error: unknown): void };
  const result = new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
  result.catch(() => undefined); // settled before anyone awaits it: not unhandled

  const server = createServer((request, response) => {
    void serve(request, response).catch(() => response.destroy());
  });

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', `http://${LOOPBACK_HOST}`);
    const other = options.notTheReturn(request.method ?? 'GET', url);
    if (other) return page(response, other);
    if (state !== 'waiting') return page(response, { status: 409, title: 'Already received', text: options.alreadyReceived });
    state = 'busy';
    let answer: Answer<T>;
    try {
      answer = await options.handle(url);
    } catch (error) {
      answer = { page: { status: 500, title: 'Failed', text: 'merch could not handle this: see your terminal.' }, outcome: { error } };
    }
    await page(response, answer.page);
    if (!answer.outcome) {
      state = 'waiting';
      return;
    }
    state = 'done';
    if ('error' in answer.outcome) settle.reject(answer.outcome.error);
    else settle.resolve(answer.outcome.value);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(new ListenError(options.port, error.code, `could not listen on ${LOOPBACK_HOST}:${options.port}: ${error.message}`));
    });
    server.listen(options.port, LOOPBACK_HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://${LOOPBACK_HOST}:${port}`,
    result,
    busy: () => state === 'busy',
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Sends the page; resolves once it is written, so the browser has it before the server closes. */
function page(response: ServerResponse, { status, title, text, location }: Page): Promise<void> {
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
      ...(location !== undefined && { location, 'referrer-policy': 'no-referrer' }),
    });
    response.end(html, () => resolve());
  });
}
