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
