import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { merch } from '../../../support/run-merch.js';
import { requestsDuring, sandboxApi, useSandbox } from '../../../support/sandbox.js';
import { scriptedPrompter } from '../../../support/scripted-prompter.js';
import { tempDir, useTempDirs } from '../../../support/temp-dir.js';

// The one confirmation before placing (src/commands/orders/create/confirm.ts), asked by
// both create paths: an order from flags, and a recipients list in batches.

const sandbox = useSandbox();
const listDir = useTempDirs();
let order: string[];
let list: string[];
beforeAll(async () => {
  const products = (await sandboxApi(sandbox(), '/v1/custom-products/?limit=100')).body.results as { id: number; available_attributes: { colors: { name: string }[] } }[];
  const product = products.find((p) => p.available_attributes.colors.length > 0)!;
  const item = ['--product', String(product.id), '--attr', `color=${product.available_attributes.colors[0]!.name}`];
  order = ['orders', 'create', ...item, '--quantity', '1', '--recipient', 'first_name=Bo,last_name=Ek,line_1=2 High St,city=Austin,state=TX,postal_code=78701,country=US'];
  const csv = join(listDir(), 'guests.csv');
  writeFileSync(csv, 'first_name,last_name,line_1,city,state,postal_code,country\nAnn,Lee,1 Main St,Austin,TX,78701,US\nBo,Kim,2 Main St,Austin,TX,78701,US\n');
  list = ['orders', 'create', ...item, '--recipients', csv, '--batch-size', '1'];
});

const creates = (requests: { method: string; path: string }[]) => requests.filter((r) => r.method === 'POST' && r.path === '/v1/orders/');

describe('the question before placing', () => {
  it('a list in batches asks once for all its orders; "no" places none of them (exit 130)', async () => {
    const prompter = scriptedPrompter([false]);
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), list, { prompter, env: { MERCH_CONFIG_DIR: join(tempDir(), 'config') } }));
    expect(prompter.asked).toEqual(['Place these 2 orders?']);
    expect(result.code, result.stderr).toBe(130);
    expect(creates(requests)).toEqual([]);
  });

  it('where nobody can answer, each path is a usage error naming --yes, and nothing is sent', async () => {
    const one = await requestsDuring(sandbox(), () => merch(sandbox(), order, { env: { MERCH_CONFIG_DIR: join(tempDir(), 'config') } }));
    expect(one.result.code).toBe(2);
    expect(one.result.stderr).toContain('error: --yes required when not interactive\nhint: add --yes to create the order, or --dry-run to see it\n');
    expect(creates(one.requests)).toEqual([]);
    const many = await requestsDuring(sandbox(), () => merch(sandbox(), list, { env: { MERCH_CONFIG_DIR: join(tempDir(), 'config') } }));
    expect(many.result.code).toBe(2);
    expect(many.result.stderr).toContain('error: --yes required when not interactive\nhint: add --yes to create the orders, or --dry-run to see them\n');
    expect(creates(many.requests)).toEqual([]);
  });
});
