import { beforeAll, describe, expect, it } from 'vitest';
import { createOrder, useSandbox } from '../support/sandbox.js';
import { ACME, call } from './helpers.js';

/**
 * Issue 23: the edges of the API, answered as Django REST Framework (with django-filter and
 * DRF's defaults) answers them, over real HTTP. Each row is one kind of edge request; it
 * asserts the status, the content type, the top-level keys of the body and DRF's (or
 * Django's) exact message, and where DRF serves the default page instead of refusing, that
 * the page is the default one.
 */

const sandbox = useSandbox({ catalog: 30 });

/** Ids filled in before the rows run: an order, a payment method and a webhook subscription of acme's. */
const ids = { order: 0, method: '', webhook: 0 };

interface Edge {
  name: string;
  method?: string;
  /** `{order}`, `{method}` and `{webhook}` are replaced by the ids above. */
  path: string;
  /** Sent as it is: a JSON text, or anything else. */
  body?: string | Uint8Array<ArrayBuffer>;
  contentType?: string;
  /** No Authorization header. */
  anonymous?: boolean;
  status: number;
  /** The body's top-level keys (JSON), or the page's <title> (HTML). */
  keys?: string[];
  title?: string;
  /** The exact `detail`, or the exact messages of each key. */
  detail?: string;
  fields?: Record<string, string[]>;
  /** The `Allow` header, in DRF's order. */
  allow?: string;
  /** The same results as this path's default page (DRF falls back instead of refusing). */
  sameResultsAs?: string;
}

const PAGE = ['count', 'next', 'previous', 'results'];
const METADATA = ['name', 'description', 'renders', 'parses'];
const NOT_FOUND = 'Not found.';
const LIST_ONLY = 'GET, HEAD, OPTIONS';
const LIST_AND_CREATE = 'GET, POST, HEAD, OPTIONS';
const notAllowed = (method: string) => `Method "${method}" not allowed.`;
const unsupported = (type: string) => `Unsupported media type "${type}" in request.`;
const WEBHOOK = '{"event": "order.changed", "target": "http://127.0.0.1:9/hook"}';

const EDGES: Edge[] = [
  // Paging: LimitOffsetPagination ignores a limit that is not a positive integer, reads a bad offset as 0.
  { name: 'a negative limit', path: '/v1/supplier-products/?limit=-1', status: 200, keys: PAGE, sameResultsAs: '/v1/supplier-products/' },
  { name: 'a limit that is not a number', path: '/v1/supplier-products/?limit=abc', status: 200, keys: PAGE, sameResultsAs: '/v1/supplier-products/' },
  { name: 'a zero limit', path: '/v1/supplier-products/?limit=0', status: 200, keys: PAGE, sameResultsAs: '/v1/supplier-products/' },
  { name: 'a fractional limit', path: '/v1/custom-products/?limit=2.5', status: 200, keys: PAGE, sameResultsAs: '/v1/custom-products/' },
  { name: 'an empty limit', path: '/v1/orders/?limit=', status: 200, keys: PAGE, sameResultsAs: '/v1/orders/' },
  { name: 'a negative offset', path: '/v1/supplier-products/?offset=-5', status: 200, keys: PAGE, sameResultsAs: '/v1/supplier-products/' },
  { name: 'an offset that is not a number', path: '/v1/products/?offset=abc', status: 200, keys: PAGE, sameResultsAs: '/v1/products/' },
  { name: 'a bad limit and offset on parts', path: '/v1/products/3/parts/?limit=x&offset=-1', status: 200, keys: PAGE, sameResultsAs: '/v1/products/3/parts/' },
  { name: 'a bad offset on webhooks', path: '/v1/core/webhooks/?offset=x', status: 200, keys: PAGE, sameResultsAs: '/v1/core/webhooks/' },
  // Ordering: OrderingFilter drops unknown fields and falls back to the default ordering.
  { name: 'an unknown ordering field', path: '/v1/supplier-products/?ordering=bogus', status: 200, keys: PAGE, sameResultsAs: '/v1/supplier-products/' },
  { name: 'an unknown descending ordering field', path: '/v1/custom-products/?ordering=-bogus', status: 200, keys: PAGE, sameResultsAs: '/v1/custom-products/' },
  { name: 'an unknown ordering field of orders', path: '/v1/orders/?ordering=total', status: 200, keys: PAGE, sameResultsAs: '/v1/orders/' },
  { name: 'an empty ordering', path: '/v1/supplier-products/?ordering=', status: 200, keys: PAGE, sameResultsAs: '/v1/supplier-products/' },
  { name: 'unknown fields among known ones', path: '/v1/supplier-products/?ordering=price,--id,-id', status: 200, keys: PAGE, sameResultsAs: '/v1/supplier-products/?ordering=-id' },
  // Filters: unknown ones are ignored; a bad value of a known one is django-filter's 400 naming it
  // (its message depends on the real model's field type, so only the key is asserted).
  { name: 'an unknown filter', path: '/v1/supplier-products/?colour=red', status: 200, keys: PAGE, sameResultsAs: '/v1/supplier-products/' },
  { name: 'an unknown filter on orders', path: '/v1/orders/?customer=me', status: 200, keys: PAGE, sameResultsAs: '/v1/orders/' },
  { name: 'a bad value of a known filter', path: '/v1/supplier-products/?id__in=1,x', status: 400, keys: ['id__in'] },
  // A method the view does not have: 405 with Allow, once the token is accepted.
  { name: 'POST on a list without create', method: 'POST', path: '/v1/supplier-products/', body: WEBHOOK, contentType: 'application/json', status: 405, keys: ['detail'], detail: notAllowed('POST'), allow: LIST_ONLY },
  { name: 'DELETE on a supplier product', method: 'DELETE', path: '/v1/supplier-products/3/', status: 405, keys: ['detail'], detail: notAllowed('DELETE'), allow: LIST_ONLY },
  { name: 'PUT on an order', method: 'PUT', path: '/v1/orders/{order}/', body: '{}', contentType: 'application/json', status: 405, keys: ['detail'], detail: notAllowed('PUT'), allow: LIST_ONLY },
  { name: 'DELETE on the orders list', method: 'DELETE', path: '/v1/orders/', status: 405, keys: ['detail'], detail: notAllowed('DELETE'), allow: LIST_AND_CREATE },
  { name: 'PATCH on a custom product', method: 'PATCH', path: '/v1/custom-products/100001/', body: '{}', contentType: 'application/json', status: 405, keys: ['detail'], detail: notAllowed('PATCH'), allow: LIST_ONLY },
  { name: 'POST on the products list', method: 'POST', path: '/v1/products/', status: 405, keys: ['detail'], detail: notAllowed('POST'), allow: LIST_ONLY },
  { name: 'PUT on a product\'s parts', method: 'PUT', path: '/v1/products/3/parts/', status: 405, keys: ['detail'], detail: notAllowed('PUT'), allow: LIST_ONLY },
  { name: 'GET on a payment method', path: '/v1/payment-methods/{method}/', status: 405, keys: ['detail'], detail: notAllowed('GET'), allow: 'PATCH, DELETE, OPTIONS' },
  { name: 'POST on the payment methods', method: 'POST', path: '/v1/payment-methods/', status: 405, keys: ['detail'], detail: notAllowed('POST'), allow: LIST_ONLY },
  { name: 'PUT on the webhooks list', method: 'PUT', path: '/v1/core/webhooks/', status: 405, keys: ['detail'], detail: notAllowed('PUT'), allow: LIST_AND_CREATE },
  { name: 'GET on a webhook subscription', path: '/v1/core/webhooks/{webhook}/', status: 405, keys: ['detail'], detail: notAllowed('GET'), allow: 'DELETE, OPTIONS' },
  { name: 'POST on users/me', method: 'POST', path: '/v1/users/me/', status: 405, keys: ['detail'], detail: notAllowed('POST'), allow: LIST_ONLY },
  { name: 'a wrong method without a token (authentication comes first)', method: 'POST', path: '/v1/supplier-products/', anonymous: true, status: 401, keys: ['detail'], detail: 'Authentication credentials were not provided.', allow: LIST_ONLY },
  // OPTIONS: DRF's SimpleMetadata.
  { name: 'OPTIONS on a list', method: 'OPTIONS', path: '/v1/supplier-products/', status: 200, keys: METADATA, allow: LIST_ONLY },
  { name: 'OPTIONS on a detail', method: 'OPTIONS', path: '/v1/orders/{order}/', status: 200, keys: METADATA, allow: LIST_ONLY },
  { name: 'OPTIONS on a list with create', method: 'OPTIONS', path: '/v1/core/webhooks/', status: 200, keys: METADATA, allow: LIST_AND_CREATE },
  { name: 'OPTIONS without a token', method: 'OPTIONS', path: '/v1/orders/', anonymous: true, status: 401, keys: ['detail'], detail: 'Authentication credentials were not provided.' },
  // Bodies: a media type other than JSON's is 415; JSON that does not parse is DRF's 400 with Python's reason.
  { name: 'a text/plain body', method: 'POST', path: '/v1/core/webhooks/', body: WEBHOOK, contentType: 'text/plain', status: 415, keys: ['detail'], detail: unsupported('text/plain') },
  { name: 'a form body', method: 'POST', path: '/v1/orders/', body: 'external_id=x', contentType: 'application/x-www-form-urlencoded', status: 415, keys: ['detail'], detail: unsupported('application/x-www-form-urlencoded') },
  { name: 'a body with no Content-Type', method: 'POST', path: '/v1/core/webhooks/', body: new TextEncoder().encode(WEBHOOK), status: 415, keys: ['detail'], detail: unsupported('') },
  { name: 'a text/plain PATCH', method: 'PATCH', path: '/v1/payment-methods/{method}/', body: '{"is_default": true}', contentType: 'text/plain; charset=utf-8', status: 415, keys: ['detail'], detail: unsupported('text/plain; charset=utf-8') },
  { name: 'JSON with a charset', method: 'POST', path: '/v1/core/webhooks/', body: WEBHOOK, contentType: 'application/json; charset=utf-8', status: 201, keys: ['id', 'event', 'target', 'is_active', 'account'] },
  { name: 'JSON cut short', method: 'POST', path: '/v1/core/webhooks/', body: '{"event": "order.changed",', contentType: 'application/json', status: 400, keys: ['detail'], detail: 'JSON parse error - Expecting property name enclosed in double quotes: line 1 column 27 (char 26)' },
  { name: 'JSON with a trailing comma', method: 'POST', path: '/v1/orders/', body: '{"external_id": "x",}', contentType: 'application/json', status: 400, keys: ['detail'], detail: 'JSON parse error - Illegal trailing comma before end of object: line 1 column 20 (char 19)' },
  { name: 'two JSON values', method: 'PATCH', path: '/v1/payment-methods/{method}/', body: 'true false', contentType: 'application/json', status: 400, keys: ['detail'], detail: 'JSON parse error - Extra data: line 1 column 6 (char 5)' },
  { name: 'NaN in JSON', method: 'POST', path: '/v1/core/webhooks/', body: '{"event": NaN}', contentType: 'application/json', status: 400, keys: ['detail'], detail: "JSON parse error - Out of range float values are not JSON compliant: 'NaN'" },
  // An empty body is no data: each required field says so.
  { name: 'an empty body', method: 'POST', path: '/v1/core/webhooks/', body: '', contentType: 'application/json', status: 400, keys: ['event', 'target'], fields: { event: ['This field is required.'], target: ['This field is required.'] } },
  { name: 'an empty text/plain body (no data, so no media type to refuse)', method: 'POST', path: '/v1/core/webhooks/', body: '', contentType: 'text/plain', status: 400, keys: ['event', 'target'] },
  { name: 'an empty order', method: 'POST', path: '/v1/orders/', body: '', contentType: 'application/json', status: 400, keys: ['payment_method_id', 'line_items', 'shipping_orders'] },
  // Paths outside every route: Django's own HTML 404 page, token or not.
  { name: 'an unknown path under /v1/', path: '/v1/nothing-here/', status: 404, title: 'Not Found' },
  { name: 'an unknown path without a token', path: '/v1/nothing-here/', anonymous: true, status: 404, title: 'Not Found' },
  { name: 'a path past a detail', path: '/v1/orders/{order}/extra/', status: 404, title: 'Not Found' },
  { name: 'the /v1/ root', path: '/v1/', status: 404, title: 'Not Found' },
  { name: 'a path outside /v1/', path: '/nothing-here/', status: 404, title: 'Not Found' },
  { name: 'OPTIONS on an unknown path', method: 'OPTIONS', path: '/v1/nothing-here/', status: 404, title: 'Not Found' },
  // Trailing slash variants: both are served (the interface writes paths both ways).
  { name: 'a list without the trailing slash', path: '/v1/supplier-products', status: 200, keys: PAGE, sameResultsAs: '/v1/supplier-products/' },
  { name: 'a detail without the trailing slash', path: '/v1/orders/{order}', status: 200, keys: undefined },
  // Unknown and non-numeric ids: DRF's JSON 404.
  { name: 'an unknown order', path: '/v1/orders/999999/', status: 404, keys: ['detail'], detail: NOT_FOUND, allow: LIST_ONLY },
  { name: 'a non-numeric order id', path: '/v1/orders/abc/', status: 404, keys: ['detail'], detail: NOT_FOUND },
  { name: 'supplier product 0', path: '/v1/supplier-products/0/', status: 404, keys: ['detail'], detail: NOT_FOUND },
  { name: 'a supplier id as a custom product', path: '/v1/custom-products/3/', status: 404, keys: ['detail'], detail: NOT_FOUND },
  { name: 'an unknown part', path: '/v1/products/3/parts/1/', status: 404, keys: ['detail'], detail: NOT_FOUND },
  { name: 'an unknown webhook subscription', method: 'DELETE', path: '/v1/core/webhooks/999/', status: 404, keys: ['detail'], detail: NOT_FOUND, allow: 'DELETE, OPTIONS' },
  { name: 'an unknown payment method', method: 'PATCH', path: '/v1/payment-methods/pm_nope/', body: '{"is_default": true}', contentType: 'application/json', status: 404, keys: ['detail'], detail: NOT_FOUND },
];

function pathOf(edge: { path: string }): string {
  return edge.path.replace('{order}', String(ids.order)).replace('{method}', ids.method).replace('{webhook}', String(ids.webhook));
}

async function send(edge: Edge): Promise<{ status: number; type: string | null; allow: string | null; text: string }> {
  const headers: Record<string, string> = {};
  if (!edge.anonymous) headers.authorization = `Bearer ${ACME}`;
  if (edge.contentType !== undefined) headers['content-type'] = edge.contentType;
  const response = await fetch(`${sandbox().url}${pathOf(edge)}`, { method: edge.method ?? 'GET', headers, body: edge.body });
  return { status: response.status, type: response.headers.get('content-type'), allow: response.headers.get('allow'), text: await response.text() };
}

describe('the edges of the API, as DRF answers them (issue 23)', () => {
  beforeAll(async () => {
    ids.order = (await createOrder(sandbox(), 'edge-order')).id;
    ids.method = (await call(sandbox(), '/v1/payment-methods/')).body.card[0].id;
    ids.webhook = (await call(sandbox(), '/v1/core/webhooks/', { body: { event: 'order.created', target: 'http://127.0.0.1:9/' } })).body.id;
  });

  it('covers at least the 35 kinds of edge request the issue compared', () => {
    expect(EDGES.length).toBeGreaterThanOrEqual(35);
  });

  it.each(EDGES.map((edge) => [edge.name, edge] as const))('%s', async (_name, edge) => {
    const { status, type, allow, text } = await send(edge);
    expect(status).toBe(edge.status);
    if (edge.title !== undefined) {
      // Django's page, exactly: text/html, its title, no JSON.
      expect(type).toBe('text/html');
      expect(text).toContain(`<title>${edge.title}</title>`);
      expect(text).toContain('<p>The requested resource was not found on this server.</p>');
      expect(allow).toBeNull();
      return;
    }
    expect(type).toMatch(/^application\/json/);
    const body = JSON.parse(text);
    if (edge.keys !== undefined) expect(Object.keys(body)).toEqual(edge.keys);
    if (edge.detail !== undefined) expect(body.detail).toBe(edge.detail);
    if (edge.fields !== undefined) expect(body).toEqual(edge.fields);
    if (edge.allow !== undefined) expect(allow).toBe(edge.allow);
    if (edge.sameResultsAs !== undefined) {
      const expected = await call(sandbox(), edge.sameResultsAs);
      expect(expected.body.results.length).toBeGreaterThan(0);
      expect(body.results).toEqual(expected.body.results);
    }
  });

  it('answers OPTIONS with DRF\'s metadata: the view\'s name, and the JSON it renders and parses', async () => {
    const names: [string, string][] = [
      ['/v1/supplier-products/', 'Supplier Product List'],
      ['/v1/supplier-products/3/', 'Supplier Product Instance'],
      ['/v1/custom-products/', 'Custom Product List'],
      ['/v1/orders/{order}/', 'Order Instance'],
      ['/v1/products/3/parts/', 'Part List'],
      ['/v1/payment-methods/', 'Payment Method List'],
      ['/v1/core/webhooks/', 'Webhook List'],
      ['/v1/users/me/', 'Me'],
    ];
    for (const [path, name] of names) {
      const { status, text } = await send({ name, method: 'OPTIONS', path, status: 200 });
      expect(status, path).toBe(200);
      expect(JSON.parse(text), path).toEqual({ name, description: '', renders: ['application/json'], parses: ['application/json'] });
    }
  });

  it('answers HEAD where GET is allowed, with the headers and no body', async () => {
    const { status, allow, text } = await send({ name: 'HEAD', method: 'HEAD', path: '/v1/orders/{order}/', status: 200 });
    expect(status).toBe(200);
    expect(allow).toBe(LIST_ONLY);
    expect(text).toBe('');
  });
});
