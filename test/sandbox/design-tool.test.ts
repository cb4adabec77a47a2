import { describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox.js';
import { call, errorPaths, GLOBEX } from './helpers.js';
import { waitFor } from '../support/wait-for.js';
import { startListener } from './listener.js';

const sandbox = useSandbox({ catalog: 20, eventDelayMs: 50 });
const KEY = { 'X-Api-Key': 'sandbox-design-key' };

const smartlinkBody = (extra: Record<string, unknown> = {}) => ({
  userId: 'user-1',
  sku: 'DT-000003',
  language: 'en',
  country: 'US',
  currency: 'USD',
  quantity: 1,
  productOptions: { enable: true, openOnStart: false },
  ...extra,
});

async function smartlink(extra: Record<string, unknown> = {}, token: string | null = null): Promise<string> {
  const { status, body } = await call(sandbox(), '/design-tool/api/smartlink', { body: smartlinkBody(extra), headers: KEY, token });
  expect(status).toBe(200);
  return body.URL;
}

/** What a browser does: open the editor, type a design, press "Add to cart". */
async function addToCart(link: string, design: string): Promise<Response> {
  const page = await (await fetch(link)).text();
  const action = /<form method="post" action="([^"]+)"/.exec(page)![1]!;
  const hidden = Object.fromEntries([...page.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  return fetch(new URL(action, link), {
    method: 'POST',
    body: new URLSearchParams({ ...hidden, design }),
    redirect: 'manual',
  });
}

describe('design tool', () => {
  it('checks the API key and validates the smartlink body', async () => {
    const noKey = await call(sandbox(), '/design-tool/api/smartlink', { body: smartlinkBody(), token: null });
    expect(noKey.status).toBe(401);
    const bad = await call(sandbox(), '/design-tool/api/smartlink', { body: smartlinkBody({ quantity: 0, productOptions: {} }), headers: KEY, token: null });
    expect(bad.status).toBe(400);
    expect(errorPaths(bad.body).sort()).toEqual(['productOptions.enable', 'productOptions.openOnStart', 'quantity']);
    expect(bad.body.productOptions).toEqual({ enable: [expect.any(String)], openOnStart: [expect.any(String)] });
    const unknownSku = await call(sandbox(), '/design-tool/api/smartlink', { body: smartlinkBody({ sku: 'DT-999999' }), headers: KEY, token: null });
    expect(unknownSku.status).toBe(400);
    expect(Object.keys(unknownSku.body)).toEqual(['sku']);
  });

  it('runs the whole flow: smartlink, editor page, add to cart, cart completion once', async () => {
    const listener = await startListener();
    try {
      await call(sandbox(), '/v1/core/webhooks/', { body: { event: 'custom_product.created', target: `${listener.url}/cp` } });
      await call(sandbox(), '/v1/core/webhooks/', { body: { event: 'custom_product.changed', target: `${listener.url}/cp` } });
      const link = await smartlink({ cartUrl: 'https://shop.example/cart?store=7' });
      const url = new URL(link);
      expect(url.origin + url.pathname).toBe(`${sandbox().url}/design-tool/editor`);
      expect(Object.fromEntries(url.searchParams)).toMatchObject({ sku: 'DT-000003', locale: 'en_US', countryId: 'US', currency: 'USD', userToken: expect.any(String) });

      const page = await fetch(link);
      expect(page.headers.get('content-type')).toContain('text/html');
      const html = await page.text();
      expect(html).toContain('id="design-text"');
      expect(html).toContain('id="add-to-cart"');
      expect(html).not.toMatch(/(src|href)="https?:/);

      const redirect = await addToCart(link, 'Hello <world>');
      expect(redirect.status).toBe(303);
      const location = new URL(redirect.headers.get('location')!);
      expect(location.origin + location.pathname).toBe('https://shop.example/cart');
      expect(location.searchParams.get('store')).toBe('7');
      const feCartUrl = location.searchParams.get('fe_cart_url')!;
      expect(feCartUrl.startsWith(`${sandbox().url}/design-tool/cart/`)).toBe(true);

      const cartPath = `/v1/design-tool/cart/?fe_cart_url=${encodeURIComponent(feCartUrl)}`;
      expect((await call(sandbox(), cartPath, { token: GLOBEX })).status).toBe(404);
      const created = await call(sandbox(), cartPath);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: expect.stringContaining('Hello <world>'), supplier_product: 3, design_status: { id: 2 } });
      const again = await call(sandbox(), cartPath);
      expect(again.status).toBe(409);
      expect(again.body.custom_product_id).toBe(created.body.id);

      expect((await call(sandbox(), `/v1/custom-products/${created.body.id}`)).status).toBe(200);
      await waitFor(() => listener.received.length >= 2);
      expect(listener.received.map((d) => [d.body.hook.event, d.body.data.design_status.name])).toEqual([
        ['custom_product.created', 'In Review'],
        ['custom_product.changed', 'Approved'],
      ]);
    } finally {
      await listener.close();
    }
  });

  it('refuses a cart URL of another host, and an unknown cart', async () => {
    const other = await call(sandbox(), `/v1/design-tool/cart/?fe_cart_url=${encodeURIComponent('http://evil.example/design-tool/cart/abc')}`);
    expect(other.status).toBe(400);
    expect(Object.keys(other.body)).toEqual(['fe_cart_url']);
    const unknown = await call(sandbox(), `/v1/design-tool/cart/?fe_cart_url=${encodeURIComponent(`${sandbox().url}/design-tool/cart/ffff`)}`);
    expect(unknown.status).toBe(404);
    const missing = await call(sandbox(), '/v1/design-tool/cart/');
    expect(Object.keys(missing.body)).toEqual(['fe_cart_url']);
  });

  it('finishes through the test control with the registered cart URL, for the session\'s account only', async () => {
    const link = await smartlink({}, GLOBEX);
    const noCart = await call(sandbox(), '/_sandbox/design-tool/finish', { body: { url: link, design: 'x' }, token: GLOBEX });
    expect(noCart.status).toBe(409);
    const put = await call(sandbox(), '/_sandbox/design-tool/cart-url', { method: 'PUT', body: { cart_url: 'http://127.0.0.1:9/cart' }, token: GLOBEX });
    expect(put.status).toBe(200);
    expect((await call(sandbox(), '/_sandbox/design-tool/finish', { body: { url: link, design: 'x' } })).status).toBe(404);
    const finished = await call(sandbox(), '/_sandbox/design-tool/finish', { body: { url: link, design: 'Globex rocks' }, token: GLOBEX });
    expect(finished.status).toBe(200);
    const redirect = new URL(finished.body.redirect);
    expect(redirect.origin + redirect.pathname).toBe('http://127.0.0.1:9/cart');
    const feCartUrl = redirect.searchParams.get('fe_cart_url')!;
    expect((await call(sandbox(), `/v1/design-tool/cart/?fe_cart_url=${encodeURIComponent(feCartUrl)}`)).status).toBe(404);
    const created = await call(sandbox(), `/v1/design-tool/cart/?fe_cart_url=${encodeURIComponent(feCartUrl)}`, { token: GLOBEX });
    expect(created.status).toBe(201);
    expect((await call(sandbox(), `/v1/custom-products/${created.body.id}`)).status).toBe(404);
  });

  it('records design tool requests', () => {
    expect(sandbox().requests.some((request) => request.path === '/design-tool/api/smartlink' && request.status === 200)).toBe(true);
  });
});
