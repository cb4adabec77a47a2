import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Prompter } from '../../../../src/prompter.js';
import { merch } from '../../../support/run-merch.js';
import { sandboxApi, useSandbox } from '../../../support/sandbox.js';
import { scriptedPrompter } from '../../../support/scripted-prompter.js';
import { tempDir } from '../../../support/temp-dir.js';

// A recipients list sent as one order (`orders create --recipients FILE` without
// --batch-size) is read once (issue 32.3): its rows are kept from the first pass, and the
// order checked and shown before "Place this order?" is the one sent.

const sandbox = useSandbox();
// Order records without shipping orders: only this machine's journal can tell which rows an order holds.
const blind = useSandbox({ orderRecords: ['no-shipping-orders'] });

it('the order confirmed at "Place this order?" is the one sent, though the list file is gone by then', async () => {
  const products = (await sandboxApi(sandbox(), '/v1/custom-products/?limit=100')).body.results as { id: number; available_attributes: { colors: { name: string }[]; sizes: { name: string }[] } }[];
  const shirt = products.find((p) => p.available_attributes.sizes.length > 1 && p.available_attributes.colors.length > 1)!;
  const size = shirt.available_attributes.sizes[0]!.name;
  const dir = tempDir();
  const csv = join(dir, 'guests.csv');
  writeFileSync(csv, `first_name,last_name,line_1,city,state,postal_code,country,size\nAnn,Lee,1 Main St,Austin,TX,78701,US,${size}\nBo,Kim,2 Main St,Austin,TX,78701,US,${size}\n`);
  const externalId = 'one-order-read-once';
  // "yes" to "Place this order?", answered once the list file is gone
  const script = scriptedPrompter([true]);
  const prompter: Prompter = { ...script, confirm: (...question) => (rmSync(csv), script.confirm(...question)) };
  const result = await merch(sandbox(), ['orders', 'create', '--product', String(shirt.id), '--attr', `color=${shirt.available_attributes.colors[0]!.name}`, '--recipients', csv, '--external-id', externalId], {
    env: { MERCH_CONFIG_DIR: join(dir, 'config') },
    prompter,
  });
  expect(script.asked).toEqual(['Place this order?']);
  expect(result.code, result.stderr).toBe(0);
  const orders = (await sandboxApi(sandbox(), `/v1/orders?external_id=${externalId}`)).body.results as { shipping_orders: { recipient: { first_name: string } }[] }[];
  expect(orders).toHaveLength(1);
  expect(orders[0]!.shipping_orders.map((so) => so.recipient.first_name)).toEqual(['Ann', 'Bo']);
});

// The rows' contents (digests) of a list sent as one order are taken only when needed: to
// match the run's earlier orders, and for the journal's record of the order sent.
it('a list sent as one order: its dry run sends every row; the journal records the rows sent, so that a grown list sends only its new row', async () => {
  const products = (await sandboxApi(blind(), '/v1/custom-products/?limit=100')).body.results as { id: number; available_attributes: { colors: { name: string }[]; sizes: { name: string }[] } }[];
  const shirt = products.find((p) => p.available_attributes.sizes.length > 1)!;
  const size = shirt.available_attributes.sizes[0]!.name;
  const dir = tempDir();
  const rows = ['Ann', 'Bo', 'Cy'].map((name, i) => `${name},Lee,${i + 1} Main St,Austin,TX,78701,US,${size}`);
  const listOf = (n: number) => {
    const csv = join(dir, `guests-${n}.csv`);
    writeFileSync(csv, `first_name,last_name,line_1,city,state,postal_code,country,size\n${rows.slice(0, n).join('\n')}\n`);
    return csv;
  };
  const run = (csv: string, ...extra: string[]) =>
    merch(blind(), ['orders', 'create', '--product', String(shirt.id), '--attr', `color=${shirt.available_attributes.colors[0]!.name}`, '--recipients', csv, '--external-id', 'one-order-digests', ...extra], {
      env: { MERCH_CONFIG_DIR: join(dir, 'config') },
    });
  const dry = await run(listOf(2), '--dry-run');
  expect(dry.code, dry.stderr).toBe(0);
  expect(dry.stderr).toContain('2 recipients to send in 1 order (external id one-order-digests)');
  expect(JSON.parse(dry.stdout).shipping_orders.map((so: { recipient: { first_name: string } }) => so.recipient.first_name)).toEqual(['Ann', 'Bo']);
  const sent = await run(listOf(2), '--yes');
  expect(sent.code, sent.stderr).toBe(0);
  // The service's record cannot show the order's rows: the journal's digests of them decide.
  const grown = await run(listOf(3), '--yes');
  expect(grown.code, grown.stderr).toBe(0);
  expect(grown.stderr).toContain('2 rows of 3 already in 1 earlier order (');
  expect(grown.stderr).toContain('1 created (1 recipient), 1 existing (2 recipients), 0 refused');
  const orders = ((await sandboxApi(blind(), '/_sandbox/orders')).body as { external_id: string; shipping_orders: { first_name: string }[] }[]).filter((o) => o.external_id.startsWith('one-order-digests'));
  expect(orders.map((o) => [o.external_id, o.shipping_orders.map((so) => so.first_name)])).toEqual([
    ['one-order-digests', ['Ann', 'Bo']],
    ['one-order-digests-1', ['Cy']],
  ]);
});
