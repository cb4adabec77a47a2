#!/usr/bin/env node
// Benchmark (issue 18.5): the rerun of a large send on a fresh machine, which sends nothing.
// `merch orders create --recipients F --batch-size 1000 --external-id RUN` is sent once (not
// measured) with F of `rows` rows; then, against `merch sandbox` in a child process, interleaved:
//  - rerun: the same command from a fresh config directory (no journal): it reads the list,
//    finds the run's orders by reading every order of the account (pages concurrently),
//    matches every row to its shipping order and sends nothing;
//  - list: `merch orders list --all --jsonl` over the same orders (the time baseline);
//  - small: the rerun of a 1,000-row send in another account (the memory baseline).
// Wall time spawn to exit; peak RSS from process.resourceUsage() at exit. Prints one JSON line.
// Run after `npm run build`: `node bench/orders-rerun.mjs [rows] [runs]` (default 100,000, 3).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interleave, median, merchBin, runNode } from './lib/measure.mjs';
import { startSandboxProcess, TOKEN } from './lib/sandbox.mjs';

const rows = Number(process.argv[2] ?? 100_000);
const runs = Number(process.argv[3] ?? 3);
const SMALL = 1_000;
const BATCH = 1_000;
const TOKEN_2 = 'sandbox-token-2';

const dir = mkdtempSync(join(tmpdir(), 'merch-bench-rerun-'));
const sandbox = await startSandboxProcess();
try {
  const productOf = async (token) => {
    const page = await (await fetch(`${sandbox.url}/v1/custom-products/?limit=100`, { headers: { authorization: `Bearer ${token}` } })).json();
    const product = page.results.find((p) => p.available_attributes.sizes.length >= 2);
    return { id: product.id, color: product.available_attributes.colors[0].name, sizes: product.available_attributes.sizes.map((s) => s.name) };
  };
  const csvOf = (n, name, product) => {
    const lines = ['first_name,last_name,email,line_1,city,state,postal_code,country,size'];
    for (let i = 0; i < n; i++) lines.push(`First${i},Last${i},p${i}@example.com,"${i} Main St",Springfield,IL,62701,US,${product.sizes[i % product.sizes.length]}`);
    const file = join(dir, name);
    writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  };
  let machines = 0;
  const freshMachine = () => join(dir, `machine-${machines++}`);
  const send = (token, product, csv, runId) => ['orders', 'create', '--product', String(product.id), '--attr', `color=${product.color}`, '--recipients', csv, '--batch-size', String(BATCH), '--external-id', runId, '--yes'];
  const envOf = (token) => ({ ...sandbox.env, MERCH_TOKEN: token, MERCH_CONFIG_DIR: freshMachine() });

  const big = await productOf(TOKEN);
  const small = await productOf(TOKEN_2);
  const bigCsv = csvOf(rows, 'big.csv', big);
  const smallCsv = csvOf(SMALL, 'small.csv', small);
  // The sends themselves, once.
  await runNode([merchBin(), ...send(TOKEN, big, bigCsv, 'bench-big')], { env: envOf(TOKEN), timeoutMs: 1_800_000 });
  await runNode([merchBin(), ...send(TOKEN_2, small, smallCsv, 'bench-small')], { env: envOf(TOKEN_2), timeoutMs: 600_000 });

  const summary = /0 created, (\d+) existing \((\d+) recipients\), 0 refused/;
  const results = await interleave(
    {
      rerun: { args: [merchBin(), ...send(TOKEN, big, bigCsv, 'bench-big')], token: TOKEN, recipients: rows },
      list: { args: [merchBin(), 'orders', 'list', '--all', '--jsonl'], token: TOKEN },
      small: { args: [merchBin(), ...send(TOKEN_2, small, smallCsv, 'bench-small')], token: TOKEN_2, recipients: SMALL },
    },
    runs,
    async ({ args, token, recipients }) => {
      const r = await runNode(args, { env: envOf(token), usage: true, timeoutMs: 1_800_000 });
      if (recipients !== undefined) {
        const found = summary.exec(r.stderr);
        if (!found || Number(found[2]) !== recipients) throw new Error(`the rerun did not find every row in an order: ${r.stderr.slice(-500)}`);
      }
      return { wallMs: r.wallMs, rssMB: r.usage.maxRSS / 1024 };
    },
    { warmup: 0 },
  );
  const figure = (name, key) => Number(median(results[name].map((r) => r[key])).toFixed(1));
  console.log(
    JSON.stringify({
      rows,
      small_rows: SMALL,
      batch_size: BATCH,
      wall_ms: { rerun: figure('rerun', 'wallMs'), list_all: figure('list', 'wallMs'), small_rerun: figure('small', 'wallMs') },
      peak_rss_mb: { rerun: figure('rerun', 'rssMB'), list_all: figure('list', 'rssMB'), small_rerun: figure('small', 'rssMB') },
    }),
  );
} finally {
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
}
