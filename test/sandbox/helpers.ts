import type { Sandbox } from '../../src/sandbox/index.js';

export const ACME = 'sandbox-token';
export const GLOBEX = 'sandbox-token-2';

export interface Call {
  method?: string;
  body?: unknown;
  token?: string | null;
  headers?: Record<string, string>;
}

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** One JSON request to the sandbox, as acme unless told otherwise. */
export async function call<T = any>(sandbox: Sandbox, path: string, options: Call = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? ACME : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${sandbox.url}${path}`, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    redirect: 'manual',
  });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.includes('json');
  return { status: response.status, body: (isJson && text ? JSON.parse(text) : text) as T, headers: response.headers };
}

/**
 * The field paths a DRF error body names, in its order: `{"line_items": [{}, {"id": ["m"]}]}`
 * -> `['line_items[1].id']`; `non_field_errors` of an item names the item (`line_items[1]`).
 */
export function errorPaths(body: unknown, prefix = ''): string[] {
  if (Array.isArray(body)) {
    if (body.every((item) => typeof item === 'string')) return [prefix === '' ? 'non_field_errors' : prefix];
    return body.flatMap((item, index) => errorPaths(item, `${prefix}[${index}]`));
  }
  if (typeof body !== 'object' || body === null) throw new Error(`not an error body: ${JSON.stringify(body)}`);
  return Object.entries(body).flatMap(([key, value]) => {
    if (key === 'non_field_errors' && prefix !== '') return errorPaths(value, prefix);
    return errorPaths(value, prefix === '' ? key : `${prefix}.${key}`);
  });
}
