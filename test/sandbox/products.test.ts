import { describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox.js';
import { call, GLOBEX } from './helpers.js';

const sandbox = useSandbox({ catalog: 60 });

async function allSupplierProducts(): Promise<any[]> {
  const first = await call(sandbox(), '/v1/supplier-products?limit=100');
  return first.body.results;
}

describe('supplier products', () => {
  it('lists the whole catalog in id order, with the design tool sku, price and created_at', async () => {
    const products = await allSupplierProducts();
    expect(products).toHaveLength(60);
    expect(products.map((p) => p.id)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(products[0]).toMatchObject({
      design_tool_sku: 'DT-000001',
      price: { currency: 'USD', amount: expect.any(Number), display: expect.stringMatching(/^\d+\.\d\d$/) },
      categories: expect.arrayContaining([expect.objectContaining({ id: expect.any(Number), name: expect.any(String) })]),
    });
    expect(products[0].price.display).toBe((products[0].price.amount / 100).toFixed(2));
  });

  it('is the same catalog for the same seed', async () => {
    const { startSandbox } = await import('../../src/sandbox/index.js');
    const other = await startSandbox({ port: 0, catalog: 60 });
    try {
      const theirs = await call(other, '/v1/supplier-products/17');
      const ours = await call(sandbox(), '/v1/supplier-products/17');
      expect(theirs.body).toEqual(ours.body);
    } finally {
      await other.close();
    }
  });

  it('filters by categories__in (any of the listed categories)', async () => {
    const all = await allSupplierProducts();
    const expected = all.filter((p) => p.categories.some((c: any) => c.id === 1 || c.id === 3)).map((p) => p.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(60);
    const { body } = await call(sandbox(), '/v1/supplier-products?categories__in=1,3&limit=100');
    expect(body.count).toBe(expected.length);
    expect(body.results.map((p: any) => p.id)).toEqual(expected);
  });

  it('filters by id__in and rejects a bad integer naming the parameter', async () => {
    const { body } = await call(sandbox(), '/v1/supplier-products?id__in=5,2,40');
    expect(body.results.map((p: any) => p.id)).toEqual([2, 5, 40]);
    const bad = await call(sandbox(), '/v1/supplier-products?id__in=1,x');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['id__in']);
  });

  it('orders by id, created_at and name, both ways', async () => {
    const all = await allSupplierProducts();
    for (const field of ['id', 'created_at', 'name'] as const) {
      const ascending = [...all].sort((a, b) => (a[field] < b[field] ? -1 : a[field] > b[field] ? 1 : a.id - b.id));
      const up = await call(sandbox(), `/v1/supplier-products?ordering=${field}&limit=100`);
      expect(up.body.results.map((p: any) => p.id)).toEqual(ascending.map((p) => p.id));
      const down = await call(sandbox(), `/v1/supplier-products?ordering=-${field}&limit=100`);
      const descending = [...all].sort((a, b) => (a[field] < b[field] ? 1 : a[field] > b[field] ? -1 : b.id - a.id));
      expect(down.body.results.map((p: any) => p.id)).toEqual(descending.map((p) => p.id));
    }
    const byCreated = await call(sandbox(), '/v1/supplier-products?ordering=created_at&limit=100');
    expect(byCreated.body.results.map((p: any) => p.id)).not.toEqual(all.map((p) => p.id));
  });

  it('drops an unknown ordering field, as DRF\'s OrderingFilter does, and orders by the fields left', async () => {
    const byId = await call(sandbox(), '/v1/supplier-products?limit=100');
    const unknown = await call(sandbox(), '/v1/supplier-products?ordering=price&limit=100');
    expect(unknown.status).toBe(200);
    expect(unknown.body.results.map((p: any) => p.id)).toEqual(byId.body.results.map((p: any) => p.id));
    const byName = await call(sandbox(), '/v1/supplier-products?ordering=-name&limit=100');
    const mixed = await call(sandbox(), '/v1/supplier-products?ordering=price,-name,--id&limit=100');
    expect(mixed.body.results.map((p: any) => p.id)).toEqual(byName.body.results.map((p: any) => p.id));
    expect(mixed.body.results.map((p: any) => p.id)).not.toEqual(byId.body.results.map((p: any) => p.id));
  });

  it('orders by several fields in turn (ordering=a,b)', async () => {
    const all = await allSupplierProducts();
    const expected = [...all].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) || b.created_at.localeCompare(a.created_at) || a.id - b.id);
    const { body } = await call(sandbox(), '/v1/supplier-products?ordering=name,-created_at&limit=100');
    expect(body.results.map((p: any) => p.id)).toEqual(expected.map((p) => p.id));
  });

  it('searches names case-insensitively', async () => {
    const all = await allSupplierProducts();
    const expected = all.filter((p) => p.name.toLowerCase().includes('shirt')).map((p) => p.id);
    expect(expected.length).toBeGreaterThan(0);
    const { body } = await call(sandbox(), '/v1/supplier-products?search=sHiRt&limit=100');
    expect(body.results.map((p: any) => p.id)).toEqual(expected);
  });

  it('retrieves one by id, 404 for an unknown one', async () => {
    expect((await call(sandbox(), '/v1/supplier-products/7')).body.id).toBe(7);
    const missing = await call(sandbox(), '/v1/supplier-products/9999');
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toEqual(expect.any(String));
  });
});

describe('pagination', () => {
  it('defaults to 20 and links next with the other parameters kept', async () => {
    const { body } = await call(sandbox(), '/v1/supplier-products?search=a&ordering=-name');
    expect(body.results).toHaveLength(Math.min(20, body.count));
    const next = new URL(body.next);
    expect(Object.fromEntries(next.searchParams)).toEqual({ search: 'a', ordering: '-name', limit: '20', offset: '20' });
    expect(next.origin).toBe(sandbox().url);
    expect(body.previous).toBeNull();
  });

  it('walks next and previous links across the pages', async () => {
    const first = await call(sandbox(), '/v1/supplier-products?limit=25&categories__in=1,2,3,4,5,6,7');
    expect(first.body.count).toBe(60);
    const second = await call(sandbox(), first.body.next.slice(sandbox().url.length));
    expect(second.body.results[0].id).toBe(26);
    const third = await call(sandbox(), second.body.next.slice(sandbox().url.length));
    expect(third.body.results.map((p: any) => p.id)).toEqual(Array.from({ length: 10 }, (_, i) => 51 + i));
    expect(third.body.next).toBeNull();
    const back = new URL(third.body.previous);
    expect(Object.fromEntries(back.searchParams)).toEqual({ limit: '25', offset: '25', categories__in: '1,2,3,4,5,6,7' });
  });

  it('caps a limit over the maximum at 100', async () => {
    const { startSandbox } = await import('../../src/sandbox/index.js');
    const big = await startSandbox({ port: 0, catalog: 150 });
    try {
      const { body } = await call(big, '/v1/supplier-products?limit=500');
      expect(body.count).toBe(150);
      expect(body.results).toHaveLength(100);
      expect(new URL(body.next).searchParams.get('limit')).toBe('100');
    } finally {
      await big.close();
    }
  });

  it('answers an offset past the end with no results, the count and a previous page', async () => {
    const { body } = await call(sandbox(), '/v1/supplier-products?limit=10&offset=500');
    expect(body).toMatchObject({ count: 60, next: null, results: [] });
    // DRF's link: offset - limit, even past the end.
    expect(new URL(body.previous).searchParams.get('offset')).toBe('490');
  });

  it('serves the default page for a limit that is not a positive integer, and offset 0 for a bad offset (DRF)', async () => {
    const first = await call(sandbox(), '/v1/supplier-products');
    for (const query of ['limit=-1', 'limit=abc', 'limit=0', 'limit=2.5', 'limit=', 'offset=-5', 'offset=x', 'offset=1.5', 'limit=0&offset=-1']) {
      const { status, body } = await call(sandbox(), `/v1/supplier-products?${query}`);
      expect(status, query).toBe(200);
      expect(body.results, query).toEqual(first.body.results);
      expect(new URL(body.next).searchParams.get('limit'), query).toBe('20');
      expect(body.previous, query).toBeNull();
    }
  });

  it('reads limit and offset as Python\'s int() does: spaces, a + sign, underscores; the last of a repeated one', async () => {
    const expected = (await call(sandbox(), '/v1/supplier-products?limit=3&offset=10')).body.results;
    for (const query of ['limit=%203%20&offset=+10', 'limit=3&offset=1_0', 'limit=50&limit=3&offset=10']) {
      expect((await call(sandbox(), `/v1/supplier-products?${query}`)).body.results, query).toEqual(expected);
    }
  });

  it('links the previous page of the second without an offset, as DRF does', async () => {
    const { body } = await call(sandbox(), '/v1/supplier-products?limit=10&offset=10');
    expect(Object.fromEntries(new URL(body.previous).searchParams)).toEqual({ limit: '10' });
  });
});

describe('custom products', () => {
  it('lists the caller\'s custom products in the full record shape', async () => {
    const { body } = await call(sandbox(), '/v1/custom-products');
    expect(body.count).toBe(5);
    const product = body.results[0];
    expect(product.id).toBeGreaterThan(100000);
    for (const field of ['prices', 'default_part', 'available_attributes', 'selected_mockup', 'decorations', 'design_status', 'storage_category', 'weight_unit']) {
      expect(product, field).toHaveProperty(field);
    }
    expect(product.available_attributes.colors[0]).toEqual({ hex: expect.any(String), name: expect.any(String) });
    expect(product.available_attributes.sizes[0]).toEqual({ name: expect.any(String) });
    expect(product.design_status).toEqual({ id: 4, name: 'Approved' });
  });

  it('filters by tag__in requiring every tag', async () => {
    const all = (await call(sandbox(), '/v1/custom-products')).body.results as any[];
    const tags = all.find((p) => p.tags.length >= 2).tags.slice(0, 2) as string[];
    const expected = all.filter((p) => tags.every((tag) => p.tags.includes(tag))).map((p) => p.id);
    const single = all.filter((p) => p.tags.includes(tags[0])).map((p) => p.id);
    const { body } = await call(sandbox(), `/v1/custom-products?tag__in=${tags.join(',')}`);
    expect(body.results.map((p: any) => p.id)).toEqual(expected);
    const one = await call(sandbox(), `/v1/custom-products?tag__in=${tags[0]}`);
    expect(one.body.results.map((p: any) => p.id)).toEqual(single);
    const none = await call(sandbox(), '/v1/custom-products?tag__in=no-such-tag');
    expect(none.body.count).toBe(0);
  });

  it('orders and searches', async () => {
    const all = (await call(sandbox(), '/v1/custom-products')).body.results as any[];
    const newest = [...all].sort((a, b) => (a.created_at < b.created_at ? 1 : -1)).map((p) => p.id);
    const { body } = await call(sandbox(), '/v1/custom-products?ordering=-created_at');
    expect(body.results.map((p: any) => p.id)).toEqual(newest);
    const up = await call(sandbox(), '/v1/custom-products?ordering=name');
    expect(up.body.results.map((p: any) => p.name)).toEqual(all.map((p) => p.name).sort());
    const found = await call(sandbox(), '/v1/custom-products?search=ACME TEAM');
    expect(found.body.results.map((p: any) => p.name)).toEqual(all.filter((p) => p.name.includes('Acme Team')).map((p) => p.name));
    expect(found.body.count).toBe(1);
  });

  it('keeps each account\'s custom products to itself', async () => {
    const acme = (await call(sandbox(), '/v1/custom-products')).body.results as any[];
    const globex = (await call(sandbox(), '/v1/custom-products', { token: GLOBEX })).body.results as any[];
    expect(globex.map((p) => p.id)).not.toContain(acme[0].id);
    const stolen = await call(sandbox(), `/v1/custom-products/${acme[0].id}`, { token: GLOBEX });
    expect(stolen.status).toBe(404);
    const parts = await call(sandbox(), `/v1/products/${acme[0].id}/parts`, { token: GLOBEX });
    expect(parts.status).toBe(404);
    expect((await call(sandbox(), `/v1/custom-products/${acme[0].id}`)).status).toBe(200);
  });
});

describe('products and parts', () => {
  it('lists supplier products then the caller\'s custom products', async () => {
    const { body } = await call(sandbox(), '/v1/products?limit=10&offset=55');
    expect(body.count).toBe(65);
    expect(body.results.map((p: any) => p.id)).toEqual([56, 57, 58, 59, 60, 100001, 100002, 100003, 100004, 100005]);
  });

  it('has one part per color and size, filterable by any attribute, case-insensitively', async () => {
    const product = (await call(sandbox(), '/v1/supplier-products?categories__in=1')).body.results[0];
    const all = await call(sandbox(), `/v1/products/${product.id}/parts?limit=100`);
    expect(all.body.count).toBe(product.colors.length * product.sizes.length);
    expect(all.body.results[0].design_tool_sku).toMatch(/^DT-\d{6}-\d\d$/);
    const color = product.colors[1].name as string;
    const bySize = await call(sandbox(), `/v1/products/${product.id}/parts?size=m`);
    expect(bySize.body.count).toBe(product.colors.length);
    const both = await call(sandbox(), `/v1/products/${product.id}/parts?size=M&color=${encodeURIComponent(color.toUpperCase())}`);
    expect(both.body.count).toBe(1);
    expect(both.body.results[0].variant).toEqual({ color: product.colors[1], size: { name: 'M' } });
    expect(both.body.results[0].media_contents).toBeUndefined();
    const none = await call(sandbox(), `/v1/products/${product.id}/parts?size=XXXL`);
    expect(none.body.count).toBe(0);
    // Not an attribute of the product: ignored, as DRF ignores unknown query parameters.
    const unknown = await call(sandbox(), `/v1/products/${product.id}/parts?fabric=silk&limit=100`);
    expect(unknown.status).toBe(200);
    expect(unknown.body.count).toBe(all.body.count);
  });

  it('expands media contents and imprint areas with coordinates', async () => {
    const { body } = await call(sandbox(), '/v1/products/100001/parts?expand=media_contents,imprint_areas&limit=1');
    const part = body.results[0];
    expect(part.media_contents.length).toBeGreaterThan(0);
    expect(part.imprint_areas[0].coordinates).toEqual({ x: expect.any(Number), y: expect.any(Number), width: expect.any(Number), height: expect.any(Number), unit: 'in' });
    expect(part.design_tool_sku).toBeUndefined();
    const bad = await call(sandbox(), '/v1/products/1/parts?expand=everything');
    expect(bad.status).toBe(400);
  });

  it('answers 404 for an unknown product', async () => {
    expect((await call(sandbox(), '/v1/products/999/parts')).status).toBe(404);
    expect((await call(sandbox(), '/v1/products/100999/parts')).status).toBe(404);
  });
});
