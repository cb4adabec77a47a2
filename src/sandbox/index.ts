import { getRequestListener } from '@hono/node-server';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { SANDBOX_HEADER } from '../contract/sandbox-header.js';
import { createApp, type RecordedRequest } from './app.js';
import { hostCheck, isWildcard } from './host-check.js';
import { Catalog } from './catalog.js';
import type { App, SandboxContext } from './route-context.js';
import { Deliveries } from './deliveries.js';
import { Events } from './events.js';
import { Lifecycle } from './lifecycle.js';
import { createOAuthServer } from './oauth/server.js';
import { resolveOptions, type ResolvedOptions, type SandboxOptions } from './options.js';
import { seedState } from './seed.js';
import { Store } from './store.js';

export type { RecordedRequest } from './app.js';
export {
  CREATE_ANSWERS,
  DUPLICATE_ORDER_FORMS,
  FAULT_KINDS,
  MONEY_FORMS,
  ORDER_RECORD_TRAITS,
  SandboxOptionError,
  type CreateAnswer,
  type DuplicateOrderForm,
  type FaultKind,
  type MoneyForm,
  type OrderRecordTrait,
  type SandboxOptions,
} from './options.js';
export { DESIGN_TOOL_KEY } from './design-tool.js';
export { SEEDED_ACCOUNTS } from './seed.js';
export { SEEDED_APPS, SEEDED_USERS } from './oauth/registry.js';

export interface Sandbox {
  /** e.g. http://127.0.0.1:4010, no trailing slash. */
  url: string;
  port: number;
  /** The address it is bound to, as the system says it (`127.0.0.1`, `0.0.0.0`, `::`). */
  address: string;
  /** Every /v1, /design-tool and /o (OAuth) request, in order of arrival, including faulted ones. */
  requests: RecordedRequest[];
  /** With `resetReused`: the requests left unanswered, their connection reset (never in `requests`). */
  resets: { method: string; url: string }[];
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // As the system says it (code EADDRINUSE, ...): the command says it with its flags.
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
}

/** The URL clients use: a wildcard bind address is reached through loopback. */
function urlHost(host: string): string {
  if (isWildcard(host)) return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** The sandbox's parts, put together but not listening. */
export interface AssembledSandbox {
  /** Answers requests however they come: through startSandbox's server, or a test's transport in-process (test/support/memory-service.ts). */
  app: App;
  requests: RecordedRequest[];
  /** Starts the orders' lifecycle (once answers can name the sandbox's URL). */
  start(): void;
  /** Stops the lifecycle and the deliveries: nothing more happens by itself. */
  stop(): void;
  /** Writes what is pending (with --data: the journal, or a small state as one snapshot). */
  close(): Promise<void>;
}

/** The store, the lifecycle, the events and the app, from the options; `url` is the base URL answers name (pages' `next`, webhooks). */
export function assembleSandbox(resolved: ResolvedOptions, url: () => string): AssembledSandbox {
  const catalog = new Catalog(resolved.seed, resolved.catalog);
  const store = new Store(() => seedState(resolved.seed, catalog), resolved.data, resolved.log);
  const deliveries = new Deliveries(resolved.deliveryRetryBaseMs, resolved.log);
  const events = new Events(store, deliveries);
  const lifecycle = new Lifecycle(store, events, resolved.eventDelayMs, resolved.lifecycleMs);
  const oauth = createOAuthServer(store, { tokenTtlSeconds: resolved.tokenTtl, redirectUris: resolved.redirectUris, now: resolved.clock });
  const ctx: SandboxContext = { store, catalog, events, lifecycle, oauth, variants: resolved.variants, url };
  const requests: RecordedRequest[] = [];
  const app = createApp({
    ctx,
    faults: { seed: resolved.seed, rate: resolved.faults, kinds: resolved.faultKinds },
    latency: resolved.latency,
    requests: resolved.recordRequests ? requests : undefined,
    log: resolved.log,
  });
  return {
    app,
    requests,
    start: () => lifecycle.resume(),
    stop() {
      lifecycle.clear();
      deliveries.close();
    },
    close: () => store.close(),
  };
}

/**
 * `--reset-reused`: a connection's first request is answered; each later one on it is not:
 * the connection is reset (RST) as the request arrives, as a server (or a balancer in front
 * of it) that dropped the idle keep-alive connection the client reused. Below the app, so
 * nothing of the request is done or recorded in `requests`. True when the request was reset.
 */
function resetReused(resets: Sandbox['resets'], log: (line: string) => void): (request: IncomingMessage) => boolean {
  const served = new WeakSet<Socket>();
  return (request) => {
    const { socket } = request;
    if (!served.has(socket)) {
      served.add(socket);
      return false;
    }
    const line = { method: request.method ?? '', url: request.url ?? '' };
    resets.push(line);
    log(`${line.method} ${line.url} reset (--reset-reused)`);
    request.on('error', () => undefined);
    socket.resetAndDestroy();
    return true;
  };
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const resolved = resolveOptions(options);
  let url = '';
  const sandbox = assembleSandbox(resolved, () => url);
  // Every answer says it comes from a merch sandbox (401s, 404s, errors and test controls
  // too): the CLI sends the sandbox's public token only to a server that answers with it. Set
  // on the Node response before the app runs: no answer is without it, and the app's answers
  // keep their plain headers (setting it on a Response made a Headers object per request).
  const answer = getRequestListener(sandbox.app.fetch);
  const resets: Sandbox['resets'] = [];
  const reset = resolved.resetReused ? resetReused(resets, resolved.log) : undefined;
  // Known once it listens (port 0 picks one).
  let hostAccepted: (host: string | undefined) => boolean = () => false;
  const server = createServer((request, response) => {
    if (reset?.(request)) return;
    response.setHeader(SANDBOX_HEADER, '1');
    if (!hostAccepted(request.headers.host)) return misdirected(request, response, resolved.log);
    return answer(request, response);
  });
  await listen(server, resolved.port, resolved.host);
  const { port, address } = server.address() as AddressInfo;
  hostAccepted = hostCheck(resolved.host, port, resolved.allowHosts);
  url = `http://${urlHost(resolved.host)}:${port}`;
  sandbox.start();
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    address,
    requests: sandbox.requests,
    resets,
    close() {
      closing ??= (async () => {
        sandbox.stop();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        // With --data: what is pending is written (the journal, or a small state as one snapshot).
        await sandbox.close();
      })();
      return closing;
    },
  };
}

/**
 * 421 Misdirected Request: the Host header names another server (a page of another site
 * whose name resolves to this machine: DNS rebinding), or is missing. The request is not
 * read, not recorded and not answered by the app.
 */
function misdirected(request: IncomingMessage, response: ServerResponse, log: (line: string) => void): void {
  const host = request.headers.host;
  const detail = `This sandbox does not answer for the host ${host === undefined ? '(no Host header)' : JSON.stringify(host)}: reach it at 127.0.0.1, localhost or the address it listens on (merch sandbox --allow-host NAME accepts another name).`;
  log(`${request.method ?? '?'} ${(request.url ?? '').replace(/\?.*$/, '')} 421 (Host ${host ?? 'missing'})`);
  response.writeHead(421, { 'content-type': 'application/json', connection: 'close' });
  response.end(JSON.stringify({ detail }));
}
