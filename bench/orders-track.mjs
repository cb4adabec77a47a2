// `merch orders track --results FILE` (one poll: every order of the send read once, 8 at a
// time, one record per shipment) over 10,000 shipments in 1,000 orders (--quick: 2,000 in
// 200), against `merch orders list --all` over the same orders (their pages, 100 orders
// each, fetched concurrently), both printing TSV to a pipe; `merch sandbox` runs as a child
// process. The send is made first by `merch orders create --recipients --batch-size 10
// --results`, as a user makes one. Time: wall, spawn to exit, interleaved. The --run form
// (one listing, its records the first read) is measured too, for the note.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interleave, median, merchBin, row, runNode } from './lib/measure.mjs';
import { startSandboxProcess } from './lib/sandbox.mjs';

export const TIME_GOAL = 1.3;
const PER_ORDER = 10;

export async function run({ quick = false } = {}) {
  const orders = quick ? 200 : 1_000;
  const shipments = orders * PER_ORDER;
  const runs = quick ? 1 : 5;
  const sandbox = await startSandboxProcess({ latency: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'merch-bench-track-'));
  try {
    const env = { ...sandbox.env, MERCH_CONFIG_DIR: dir };
    const runId = `bench-track-${Date.now()}`;
    const results = join(dir, 'results.csv');
    await send({ url: sandbox.url, env, dir, shipments, runId, results });
    const measured = await interleave(
      {
        list: { args: [merchBin(), 'orders', 'list', '--all'], lines: orders + 1 },
        track: { args: [merchBin(), 'orders', 'track', '--results', results], lines: shipments + 1 },
        run: { args: [merchBin(), 'orders', 'track', '--run', runId], lines: shipments + 1 },
      },
      runs,
      async ({ args, lines }) => {
        const r = await runNode(args, { env });
        if (r.lines !== lines) throw new Error(`${args.slice(1).join(' ')} printed ${r.lines} lines, expected ${lines}`);
        return r.wallMs;
      },
      { warmup: quick ? 0 : 1 },
    );
    const wall = (name) => median(measured[name]);
    const label = `${shipments.toLocaleString('en-US')} shipments in ${orders.toLocaleString('en-US')} orders`;
    return [
      row({
        name: `merch orders track --results (${label}): one poll`,
        value: wall('track'),
        baseline: wall('list'),
        unit: 'ms',
        goal: `<= ${TIME_GOAL}x orders list --all`,
        pass: wall('track') / wall('list') <= TIME_GOAL,
        note: `--run (one listing): ${Math.round(wall('run'))} ms, ${(wall('run') / wall('list')).toFixed(2)}x`,
      }),
    ];
  } finally {
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The send: `orders create --recipients` with one row per shipment, in orders of PER_ORDER, its results file written. */
async function send({ url, env, dir, shipments, runId, results }) {
  const headers = { authorization: `Bearer ${env.MERCH_TOKEN}` };
  const products = await (await fetch(`${url}/v1/custom-products/?limit=100`, { headers })).json();
  const product = products.results.find((p) => p.available_attributes.sizes.length >= 1 && p.available_attributes.colors.length >= 1);
  const size = product.available_attributes.sizes[0].name;
  const lines = ['first_name,last_name,email,line_1,city,state,postal_code,country,size'];
  for (let i = 0; i < shipments; i++) lines.push(`First${i},Last${i},p${i}@example.com,"${i} Main St",Springfield,IL,62701,US,${size}`);
  const csv = join(dir, 'recipients.csv');
  writeFileSync(csv, `${lines.join('\n')}\n`);
  const args = ['orders', 'create', '--product', String(product.id), '--attr', `color=${product.available_attributes.colors[0].name}`, '--recipients', csv];
  await runNode([merchBin(), ...args, '--batch-size', String(PER_ORDER), '--concurrency', '8', '--results', results, '--external-id', runId, '--yes'], { env, timeoutMs: 600_000 });
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await run({ quick: process.argv.includes('--quick') }), null, 1));
