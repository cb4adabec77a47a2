import { describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox.js';
import { call } from './helpers.js';
import { validOrder } from './order-fixtures.js';

const sandbox = useSandbox({ catalog: 30 });

const LISTS = [
  '/v1/supplier-products',
  '/v1/custom-products',
  '/v1/products',
  '/v1/products/3/parts',
  '/v1/orders',
  '/v1/core/webhooks',
];

describe('list endpoints, as Django REST Framework and django-filter answer them', () => {
  it('ignore query parameters they do not know', async () => {
    await call(sandbox(), '/v1/orders/', { body: await validOrder(sandbox()) });
    await call(sandbox(), '/v1/core/webhooks/', { body: { event: 'order.changed', target: 'http://127.0.0.1:9/' } });
    for (const list of LISTS) {
      const plain = await call(sandbox(), `${list}?limit=3`);
      const odd = await call(sandbox(), `${list}?limit=3&external_ref=x&page_size=1&fabric=silk&sort=-id&id__in`);
      expect(plain.status, list).toBe(200);
      expect(odd.status, list).toBe(200);
      expect(plain.body.count, list).toBeGreaterThan(0);
      expect({ count: odd.body.count, results: odd.body.results }, list).toEqual({ count: plain.body.count, results: plain.body.results });
    }
  });

  it('answer a bad limit, offset or ordering with the default page and order, as DRF does (200)', async () => {
    for (const list of LISTS) {
      const plain = await call(sandbox(), list);
      for (const query of ['limit=abc', 'offset=-1', 'ordering=total']) {
        const odd = await call(sandbox(), `${list}?${query}`);
        expect(odd.status, `${list}?${query}`).toBe(200);
        expect(odd.body.results, `${list}?${query}`).toEqual(plain.body.results);
      }
    }
  });

  it('refuse a bad value of a filter they know, naming it (400)', async () => {
    const bad: [string, string][] = [
      ['/v1/supplier-products?id__in=1,x', 'id__in'],
      ['/v1/supplier-products?categories__in=shirts', 'categories__in'],
      ['/v1/products/3/parts?expand=everything', 'expand'],
    ];
    for (const [path, parameter] of bad) {
      const { status, body } = await call(sandbox(), path);
      expect(status, path).toBe(400);
      expect(Object.keys(body), path).toEqual([parameter]);
    }
  });
});
