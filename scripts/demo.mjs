#!/usr/bin/env node
// `npm run demo`: the main job end to end, against a sandbox started in-process on a free
// port. Every step runs the real CLI (bin/merch.js) as a user would and shows its output;
// a webhook listener runs alongside and prints the events of the demo as they arrive.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../dist/sandbox.js';

const bold = (text) => (process.stdout.isTTY ? `\x1b[1m${text}\x1b[0m` : text);
// --lifecycle 1.5: the order moves on by itself (In Production, Scheduled, Shipped, Delivered).
const sandbox = await startSandbox({ port: 0, quiet: true, eventDelayMs: 300, lifecycleSeconds: 1.5 });
const home = mkdtempSync(join(tmpdir(), 'merch-demo-'));
const env = {
  ...process.env,
  MERCH_BASE_URL: sandbox.url,
  MERCH_DESIGN_TOOL_KEY: 'sandbox-design-key',
  MERCH_CONFIG_DIR: home,
  NO_COLOR: '1',
};
const cli = (args, extraEnv = {}) => spawn(process.execPath, ['bin/merch.js', ...args], { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });

/** Runs one command to its end (async: the sandbox answers from this process), shows it and its output. */
async function merch(args, note, extraEnv) {
  const shown = args.map((arg) => (/[\s'"[\]{}()*?|&;<>$]/.test(arg) ? `'${arg}'` : arg)).join(' ');
  process.stdout.write(`\n${note ? `# ${note}\n` : ''}${bold(`$ merch ${shown}`)}\n`);
  const child = cli(args, extraEnv);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  const code = await new Promise((resolve) => child.on('close', resolve));
  process.stdout.write(stdout + stderr);
  if (code !== 0) throw new Error(`merch ${args.join(' ')} exited ${code}`);
  return stdout;
}

/** Resolves with the first line of a stream that matches. */
function lineMatching(stream, pattern) {
  return new Promise((resolve, reject) => {
    let seen = '';
    stream.setEncoding('utf8').on('data', (chunk) => {
      seen += chunk;
      const match = pattern.exec(seen);
      if (match) resolve(match);
    });
    stream.on('end', () => reject(new Error(`never saw ${pattern}`)));
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let listener;
try {
  console.log(`Sandbox running at ${sandbox.url} (token sandbox-token, account acme).`);

  // Sign in as on the real service: the sandbox's private developer app, the password grant.
  await merch(
    ['login', '--client-id', 'sandbox-private-app', '--username', 'buyer@example.com'],
    "Sign in with the sandbox's private developer app (MERCH_CLIENT_SECRET and MERCH_PASSWORD set; never flags)",
    { MERCH_CLIENT_SECRET: 'sandbox-private-secret', MERCH_PASSWORD: 'sandbox-password' },
  );
  await merch(['auth', 'status'], 'Who is signed in, for which account, until when');

  // A webhook listener subscribed to every event, printing each event as it arrives.
  process.stdout.write(`\n${bold('$ merch webhooks listen --port 0 --subscribe &')}\n`);
  listener = cli(['webhooks', 'listen', '--port', '0', '--subscribe', '--save', join(home, 'events.jsonl')]);
  listener.stdout.setEncoding('utf8').on('data', (chunk) => process.stdout.write(chunk.replace(/^(?=.)/gm, '  [listen] ')));
  await lineMatching(listener.stderr, /subscribed/i);

  await merch(['products', 'list', '--limit', '5', '--sort', '-created_at', '--category', '1,2'], 'The catalog: newest supplier products of two categories');
  await merch(['products', 'list', '--all', '--query', 'length(@)'], 'Every page, fetched concurrently, counted with a JMESPath query');
  const products = JSON.parse(await merch(['custom-products', 'list', '--json', '--query', '[].{id: id, name: name, sizes: available_attributes.sizes[].name, colors: available_attributes.colors[].name}'], 'Our custom products'));
  const product = products.find((p) => p.sizes && p.sizes.length >= 3) ?? products[0];
  await merch(['parts', 'list', String(product.id), '--attr', `size=${product.sizes[0]}`], 'The parts (SKUs) of one size');
  await merch(['payment-methods', 'list'], 'Stored payment methods');

  // The design hand-off: a link, a finished design (the sandbox's editor, driven by its
  // test control as a browser would), and the new custom product.
  process.stdout.write(`\n# The design tool hand-off\n${bold('$ merch design-link --sku DT-000001 --user-id customer-42 --wait')}\n`);
  const designLink = cli(['design-link', '--sku', 'DT-000001', '--user-id', 'customer-42', '--wait']);
  let designed = '';
  designLink.stdout.setEncoding('utf8').on('data', (chunk) => (designed += chunk));
  const [, link] = await lineMatching(designLink.stderr, /(http:\/\/\S+\/design-tool\/editor\S*)/);
  process.stdout.write(`  (the browser opens ${link.slice(0, 60)}..., types a design and clicks "Add to cart")\n`);
  const finish = await fetch(`${sandbox.url}/_sandbox/design-tool/finish`, {
    method: 'POST',
    headers: { authorization: 'Bearer sandbox-token', 'content-type': 'application/json' },
    body: JSON.stringify({ url: link, design: 'Team offsite 2026' }),
  }).then((r) => r.json());
  await fetch(finish.redirect);
  await new Promise((resolve) => designLink.on('close', resolve));
  process.stdout.write(designed);

  // One order for three recipients, each with their own size, from a CSV.
  const csv = join(home, 'recipients.csv');
  const [s, m, l] = [product.sizes[0], product.sizes[1] ?? product.sizes[0], product.sizes[2] ?? product.sizes[0]];
  writeFileSync(csv, [
    'first_name,last_name,email,line_1,city,state,postal_code,country,size',
    `Ada,Lovelace,ada@example.com,"12 Analytical Way, Apt 1",Boston,MA,02101,US,${s}`,
    `Grace,Hopper,grace@example.com,1 Compiler Ct,Arlington,VA,22201,US,${m}`,
    `Alan,Turing,alan@example.com,3 Enigma Rd,Denver,CO,80202,US,${l}`,
  ].join('\r\n'));
  process.stdout.write(`\n# recipients.csv\n${bold(`$ cat recipients.csv`)}\n${readFileSync(csv, 'utf8')}\n`);
  const orderArgs = ['orders', 'create', '--product', String(product.id), '--attr', `color=${product.colors[0]}`, '--recipients', csv, '--external-id', 'demo-offsite-2026'];
  await merch([...orderArgs, '--dry-run', '--query', 'plan'], "The price before paying: the priced plan (nothing sent; shipping and tax are the service's to compute)");
  await merch([...orderArgs, '--dry-run'], 'The exact JSON body the real run sends, with its external id');
  const created = await merch([...orderArgs, '--yes'], 'One order, three recipients, three sizes');
  await merch([...orderArgs, '--yes'], 'The same command again (a rerun after a crash): reported, not ordered twice');
  const orderId = /^order\s+(\d+)/m.exec(created)[1];
  await merch(['orders', 'wait', String(orderId), '--until', 'in-production', '--interval', '0.5'], 'Wait until it is paid and In Production, then show it: line items, shipping orders, statuses and totals');
  await merch(['webhooks', 'trigger', 'order.changed', '--order', String(orderId)], 'Make the sandbox emit an event again');

  // An event's guest list in batches: one order per 3 guests, a result per row.
  const guests = join(home, 'guests.csv');
  writeFileSync(guests, ['first_name,last_name,line_1,city,state,postal_code,country,size', ...['Ann', 'Bo', 'Cy', 'Di', 'Ed', 'Flo', 'Gus'].map((name, i) => `${name},Guest,${i + 1} Main St,Austin,TX,78701,US,${product.sizes[i % product.sizes.length]}`)].join('\n'));
  const results = join(home, 'results.csv');
  await merch(['orders', 'create', '--product', String(product.id), '--attr', `color=${product.colors[0]}`, '--recipients', guests, '--batch-size', '3', '--results', results, '--yes'], 'Seven guests in orders of at most three, each sent exactly once');
  process.stdout.write(`\n# One line per guest: the order and shipping order made for it\n${bold('$ cat results.csv')}\n${readFileSync(results, 'utf8')}`);
  await merch(['orders', 'list', '--json', '--query', '[].{id: id, status: status.name, total: total.display}'], 'Scripts: JSON and JMESPath');
  await merch(['orders', 'wait', String(orderId), '--until', 'shipped', '--interval', '0.5'], 'Wait until every shipment has shipped (exit 6 if --max-wait passes first)');

  // After the send: every guest's parcel, recipient by recipient, followed to delivery.
  await merch(['orders', 'track', '--results', results], 'After the send: one line per guest (row, order, shipment, recipient, status, tracking), a count by status on stderr');
  await merch(['orders', 'list', '--status', 'in-production,shipped', '--since', '1h'], 'Which orders of the last hour are still on their way');
  await merch(['orders', 'track', '--results', results, '--until', 'delivered', '--interval', '0.5', '--format', 'csv'], "Every guest's parcel followed to delivery (a line on stderr at each change), as CSV for a spreadsheet");
  await sleep(500);
} catch (error) {
  console.error(`demo failed: ${error.message}`);
  process.exitCode = 1;
} finally {
  if (listener) {
    listener.kill('SIGINT');
    await new Promise((resolve) => listener.on('close', resolve));
    process.stdout.write('\n# The listener unsubscribed on exit:\n');
    await merch(['webhooks', 'list']);
  }
  await sandbox.close();
  rmSync(home, { recursive: true, force: true });
}
