// The `orders create` part of `npm run demo`: one product to three people, each in their
// own size, from a CSV; a dry run first, then the order, then the same command again
// (which finds the order in the journal and sends nothing).
//
// Used by scripts/demo.mjs: `await demoOrders({ merch, url: sandbox.url, dir: home })`,
// where `merch(args)` runs bin/merch.js and prints what it shows.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export async function demoOrders({ merch, url, dir, token = 'sandbox-token' }) {
  const headers = { authorization: `Bearer ${token}` };
  const { results } = await (await fetch(`${url}/v1/custom-products/?limit=100`, { headers })).json();
  const product = results.find((p) => p.available_attributes.sizes.length >= 3) ?? results[0];
  const sizes = product.available_attributes.sizes.map((s) => s.name);
  const color = product.available_attributes.colors[0].name;

  const csv = join(dir, 'team.csv');
  writeFileSync(
    csv,
    [
      'first_name,last_name,email,line_1,city,state,postal_code,country,size',
      `Ada,Lovelace,ada@example.com,"12 St James's Sq, Flat 1",London,LDN,SW1Y 4JH,GB,${sizes[0]}`,
      `Grace,Hopper,grace@example.com,1 Navy Way,Arlington,VA,22202,US,${sizes[1] ?? sizes[0]}`,
      `Alan,Turing,,2 Bletchley Park,Milton Keynes,BKM,MK3 6EB,GB,${sizes[2] ?? sizes[0]}`,
    ].join('\n') + '\n',
  );
  const args = ['orders', 'create', '--product', String(product.id), '--attr', `color=${color}`, '--recipients', csv];
  await merch([...args, '--dry-run']);
  await merch([...args, '--yes']);
  await merch([...args, '--yes']); // the journal: the same command is the same order
}
