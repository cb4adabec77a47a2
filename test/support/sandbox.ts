import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { TOKEN } from './run-merch.js';

/**
 * A sandbox for the test file on port 0 (seed 1, 200 products, quiet), started before its
 * tests and closed after them. Its orders hold still (the lifecycle's steps an hour apart),
 * so two answers a test compares never straddle a step, however slow the machine; a test
 * of the lifecycle asks for its pace with `eventDelayMs`.
 */
export function useSandbox(options: SandboxOptions = {}): () => Sandbox {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, seed: 1, catalog: 200, quiet: true, eventDelayMs: 3_600_000, ...options });
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  return () => {
    if (!sandbox) throw new Error('the sandbox is not started');
    return sandbox;
  };
}

/** The requests the sandbox received while `action` ran. */
export async function requestsDuring<T>(sandbox: Sandbox, action: () => Promise<T>): Promise<{ result: T; requests: Sandbox['requests'] }> {
  const before = sandbox.requests.length;
  const result = await action();
  return { result, requests: sandbox.requests.slice(before) };
}

export interface SandboxRequest {
  method?: string;
  body?: unknown;
  /** The bearer token (acme's by default); null sends none. */
  token?: string | null;
  headers?: Record<string, string>;
}

export interface SandboxReply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** One JSON request to the sandbox (test set-up and checks), as acme unless told otherwise; a body that is not JSON comes back as text. */
export async function sandboxApi<T = any>(sandbox: { url: string }, path: string, init: SandboxRequest = {}): Promise<SandboxReply<T>> {
  const headers: Record<string, string> = { ...init.headers };
  const token = init.token === undefined ? TOKEN : init.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${sandbox.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    redirect: 'manual',
  });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.includes('json');
  return { status: response.status, body: (isJson && text ? JSON.parse(text) : text || undefined) as T, headers: response.headers };
}

/** Creates an order through the API (two recipients, one line item) and returns it. */
export async function createOrder(sandbox: { url: string }, externalId: string): Promise<any> {
  const methods = await sandboxApi(sandbox, '/v1/payment-methods/');
  const product = (await sandboxApi(sandbox, '/v1/custom-products/')).body.results[0];
  const attributes = { color: product.available_attributes.colors[0].name, size: product.available_attributes.sizes[0].name };
  const recipient = (first: string, city: string) => ({ first_name: first, last_name: 'Tester', line_1: '1 Main St', city, state: 'MA', postal_code: '02101', country: 'US' });
  const { status, body } = await sandboxApi(sandbox, '/v1/orders/', {
    body: {
      external_id: externalId,
      payment_method_id: methods.body.card[0].id,
      line_items: [{ id: 1, product: product.id, quantity: 3, attributes }],
      shipping_orders: [
        { recipient: recipient('Ada', 'Boston'), line_items: [{ id: 1, quantity: 2 }] },
        { recipient: recipient('Grace', 'Denver'), line_items: [{ id: 1, quantity: 1 }] },
      ],
    },
  });
  if (status !== 201 && status !== 200) throw new Error(`creating an order failed with ${status}: ${JSON.stringify(body)}`);
  return body;
}
