import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { merch } from '../support/run-merch.js';
import { requestsDuring, sandboxApi, useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';

// A service that pages with DRF's PageNumberPagination (docs/service-assumptions.md, R1):
// `limit` and `offset` ignored, `next` carrying `page=N`. Read by its `next` links, never
// the first page again without end.
const sandbox = useSandbox({ pagination: 'page-number', pageCap: 7 });

it('orders list --all and products list --all read every page by its next link, each once', async () => {
  const products = await merch(sandbox(), ['products', 'list', '--all', '--json']);
  expect(products.code, products.stderr).toBe(0);
  const ids = (JSON.parse(products.stdout) as { id: number }[]).map((p) => p.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.length).toBe((await sandboxApi(sandbox(), '/v1/supplier-products')).body.count);
});

it('a recipients list run reads every order of the account by next links: a rerun on a fresh machine sends nothing', async () => {
  const rows = Array.from({ length: 20 }, (_, i) => `Pn${i},Lee,${i} Main St,Austin,TX,78701,US,2 in`);
  const list = join(tempDir(), 'guests.csv');
  writeFileSync(list, `first_name,last_name,line_1,city,state,postal_code,country,size\n${rows.join('\n')}\n`);
  const order = ['orders', 'create', '--product', '100003', '--attr', 'color=Black', '--recipients', list, '--batch-size', '2', '--yes'];
  const first = await merch(sandbox(), order);
  expect(first.code, first.stderr).toBe(0);
  expect(first.stderr).toContain('10 created (20 recipients)');
  const listed = await merch(sandbox(), ['orders', 'list', '--all', '--json']);
  expect((JSON.parse(listed.stdout) as unknown[]).length).toBe(((await sandboxApi(sandbox(), '/_sandbox/orders')).body as unknown[]).length);
  const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), order));
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toContain('0 created, 10 existing (20 recipients), 0 refused');
  expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  // Every page asked, none again but the first (asked once more when the scan finds the service pages by number).
  const pages = requests.filter((r) => r.method === 'GET' && r.path.replace(/\/$/, '') === '/v1/orders').map((r) => new URLSearchParams(r.query).get('page') ?? '1');
  expect(new Set(pages)).toEqual(new Set(['1', '2']));
  expect(pages.length).toBeLessThanOrEqual(3);
});
