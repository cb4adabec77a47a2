import type { HttpBindings } from '@hono/node-server';
import { afterAll, beforeAll } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import type { Transport, TransportRequest } from '../../src/api/transport.js';
import { followPorts } from '../../src/commands/orders/follow-ports.js';
import { serviceAccount, serviceOrdersApi } from '../../src/commands/orders/service-ports.js';
import type { AccountApi, OrdersApi } from '../../src/orders/create/ports.js';
import { AccountLookups } from '../../src/orders/create/prepare.js';
import type { SendOrders } from '../../src/orders/track/ports.js';
import { assembleSandbox, type RecordedRequest, type SandboxOptions } from '../../src/sandbox/index.js';
import { resolveOptions } from '../../src/sandbox/options.js';
import { TOKEN } from './run-merch.js';

/**
 * The service behind the domain's ports (src/orders/create/ports.ts), in memory: the
 * sandbox's own store, rules and service variants (`orderRecords`, `createAnswer`,
 * `duplicateOrder`, `idsAsStrings`, pages, faults: docs/sandbox.md, "What the real service
 * may do"), reached by the ports the CLI builds (src/commands/orders/service-ports.ts) and
 * the CLI's own API client, whose requests are answered by the sandbox's app in-process:
 * no socket, no HTTP parsing, no CLI. So a use case (placeOrder, planBatches, placeBatches,
 * prepareOrder) runs in milliseconds against every variant, with one source of truth.
 *
 * A connection the sandbox drops (`faults` of kind drop_before or drop_after) is a
 * connection error to the client, as on the wire; `loseCreateAnswers` drops one on demand:
 * the order is stored, its answer lost.
 */

/** The base URL the client is given; nothing connects to it (the transport answers in-process). */
const ORIGIN = 'http://localhost';

export interface MemoryServiceOptions extends SandboxOptions {
  /** `--retries`: how often the client retries a request, and a create may be resent after a look-up (default 3, as the CLI's). */
  retries?: number;
}

export interface SandboxAnswer {
  status: number;
  body: any;
}

/**
 * A gateway in front of the service, misbehaving as a test says (what no sandbox variant
 * does): it may answer a request itself, or reshape the service's JSON answer.
 */
export interface Gateway {
  answer?(method: string, url: URL): SandboxAnswer | undefined;
  reshape?(method: string, url: URL, body: any): void;
}

/** How a create's answer is lost once the order is stored: the connection dropped, or a gateway's status page in its place (504). */
export type LostAnswer = 'dropped' | number;

export interface MemoryService {
  /** The service's orders, through the CLI's port. */
  orders: OrdersApi;
  /** The account's payment methods and products, through the CLI's port. */
  account: AccountApi;
  /** The service's orders as following an order and tracking a send read them, through the CLI's port (src/orders/track/ports.ts). */
  followed: SendOrders;
  /** The account's data as a run reads it: each fetched once (a new one per run, as each command makes its own). */
  lookups(): AccountLookups;
  /** The next `n` order creates (0: none) are stored, and their answers lost: the connection drops after the work, or a gateway answers `as` (a status) instead. */
  loseCreateAnswers(n?: number, as?: LostAnswer): void;
  /** The gateway in front of the service, if any (set it, or undefined for none). */
  gateway: Gateway | undefined;
  /** A JSON request to the sandbox as acme, outside the ports (set-up, and the truth: `/_sandbox/orders`). */
  call(path: string, init?: { method?: string; body?: unknown }): Promise<SandboxAnswer>;
  /** Every order the store holds for acme, whatever the answers show. */
  stored(): Promise<any[]>;
  /** Every /v1 request the sandbox answered, in order. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A service of its own; close it when done (or use useMemoryService). */
export function memoryService(options: MemoryServiceOptions = {}): MemoryService {
  const { retries = 3, ...sandboxOptions } = options;
  // As test/support/sandbox.ts's: seed 1, 200 products, quiet, orders holding still.
  const sandbox = assembleSandbox(resolveOptions({ seed: 1, catalog: 200, quiet: true, eventDelayMs: 3_600_000, ...sandboxOptions }), () => ORIGIN);
  let losing = 0;
  let lostAs: LostAnswer = 'dropped';
  const service = {
    gateway: undefined as Gateway | undefined,
    lose(method: string, path: string): LostAnswer | undefined {
      if (method !== 'POST' || !/^\/v1\/orders\/?$/.test(path) || losing === 0) return undefined;
      losing--;
      return lostAs;
    },
  };
  const transport = inProcess(sandbox.app, service);
  const client = new ApiClient({ baseUrl: ORIGIN, token: TOKEN, timeoutMs: 30_000, retries, insecure: false, retryBaseMs: 1, transport });
  const call = async (path: string, init: { method?: string; body?: unknown } = {}): Promise<SandboxAnswer> => {
    const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
    const response = await sandbox.app.fetch(new Request(`${ORIGIN}${path}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) }), new Connection().bindings);
    const text = await response.text();
    return { status: response.status, body: response.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : text };
  };
  return Object.assign(service, {
    orders: serviceOrdersApi(client),
    account: serviceAccount(client),
    followed: followPorts(() => client).orders,
    lookups: () => new AccountLookups(serviceAccount(client)),
    loseCreateAnswers(n = 1, as: LostAnswer = 'dropped') {
      losing = n;
      lostAs = as;
    },
    call,
    stored: async () => (await call('/_sandbox/orders')).body,
    requests: sandbox.requests,
    async close() {
      sandbox.stop();
      await client.close();
      await sandbox.close();
    },
  });
}

/** A service for the test file (or describe block), closed after its tests. */
export function useMemoryService(options: MemoryServiceOptions = {}): () => MemoryService {
  let service: MemoryService | undefined;
  beforeAll(() => {
    service = memoryService(options);
  });
  afterAll(async () => {
    await service?.close();
  });
  return () => {
    if (!service) throw new Error('the memory service is not started');
    return service;
  };
}

/** What the sandbox's app reaches of a request's connection: its socket (a fault destroys it), and the Node response (a header set on it directly). */
class Connection {
  cut = false;
  readonly headers: Record<string, string> = {};
  readonly bindings = {
    incoming: { socket: { destroy: () => void (this.cut = true) } },
    outgoing: { setHeader: (name: string, value: string) => void (this.headers[name.toLowerCase()] = value) },
  } as unknown as HttpBindings;
}

/** A connection cut by the other side, as Node's HTTP client reports it. */
const dropped = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

/**
 * What the client sends requests through (it calls only `request` and `close`): the
 * sandbox's app, called in-process, behind the test's gateway and lost answers.
 */
function inProcess(app: { fetch(request: Request, env: HttpBindings): Response | Promise<Response> }, service: { gateway: Gateway | undefined; lose(method: string, path: string): LostAnswer | undefined }): Transport {
  const transport = {
    async request(options: TransportRequest) {
      const url = new URL(`${options.origin}${options.path}`);
      const reply = (status: number, text: string, headers: Record<string, string>) => ({ statusCode: status, headers, body: { text: async () => text } });
      const instead = service.gateway?.answer?.(options.method, url);
      if (instead) return reply(instead.status, JSON.stringify(instead.body), { 'content-type': 'application/json' });
      const lost = service.lose(options.method, url.pathname);
      const connection = new Connection();
      const response = await app.fetch(new Request(url, { method: options.method, headers: options.headers, body: options.body }), connection.bindings);
      let text = await response.text();
      if (connection.cut || lost === 'dropped') throw dropped();
      if (lost !== undefined) return reply(lost, `<html><body><h1>${lost}</h1></body></html>`, { 'content-type': 'text/html' });
      const headers = { ...connection.headers, ...Object.fromEntries(response.headers) };
      if (service.gateway?.reshape && headers['content-type']?.includes('json') && text !== '') {
        const body = JSON.parse(text);
        service.gateway.reshape(options.method, url, body);
        text = JSON.stringify(body);
      }
      return reply(response.status, text, headers);
    },
    async close() {},
  };
  return transport;
}
