#!/usr/bin/env node
// Benchmark: `merch orders create --recipients F` with 10,000 recipients.
//
// Measures the CPU time (user + system) of the CLI process, from Node's start to its exit,
// for `--dry-run` (read + parse the CSV, build, validate, print the body) and for a real
// creation (the same, plus the journal, the POST and printing the order), against
// `merch sandbox` in a child process (its CPU is not counted). The baseline is `node -e 0` measured
// the same way. Run after `npm run build`: `node bench/orders-csv.mjs [rows] [runs]`.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServerProcess } from './lib/server-process.mjs';
// MERCH_BENCH_ROOT: another build of the CLI (a directory with bin/ and dist/) to measure.
const ROOT = process.env.MERCH_BENCH_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
const rows = Number(process.argv[2] ?? 10_000);
const runs = Number(process.argv[3] ?? 5);
const SIZES_CYCLE = 3;

// Prints the process's CPU time at exit on a marked stderr line.
const REPORT = "process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('\\nCPU_MS '+((u.user+u.system)/1000).toFixed(1)+'\\n')});";

function cpuOf(code, args, env) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', REPORT + code, 'merch', ...args], { cwd: ROOT, env });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
  return new Promise((resolve, reject) => {
    child.on('close', (status) => {
      const match = /CPU_MS (\d+(?:\.\d+)?)/.exec(stderr);
      if (status !== 0 || !match) reject(new Error(`run failed (${status}): ${stderr.slice(-2000)}`));
      else resolve({ ms: Number(match[1]), stdout });
    });
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const sandbox = await startServerProcess([join(ROOT, 'bin', 'merch.js'), 'sandbox', '--port', '0', '--quiet'], { url: /listening on (http:\/\/\S+?);/ });
const dir = mkdtempSync(join(tmpdir(), 'merch-bench-'));
try {
  const headers = { authorization: 'Bearer sandbox-token' };
  const products = await (await fetch(`${sandbox.url}/v1/custom-products/?limit=100`, { headers })).json();
  const product = products.results.find((p) => p.available_attributes.sizes.length >= SIZES_CYCLE);
  const sizes = product.available_attributes.sizes.map((s) => s.name);
  const color = product.available_attributes.colors[0].name;

  const csv = join(dir, 'recipients.csv');
  const lines = ['first_name,last_name,email,line_1,city,state,postal_code,country,size'];
  for (let i = 0; i < rows; i++) {
    lines.push(`First${i},Last${i},p${i}@example.com,"${i} Main St, Apt ${i % 50}",Springfield,IL,${String(62701 + (i % 90)).padStart(5, '0')},US,${sizes[i % SIZES_CYCLE]}`);
  }
  writeFileSync(csv, `\uFEFF${lines.join('\r\n')}\r\n`);
  // the same command with one recipient: the fixed cost (start-up, requests) apart from the rows
  const one = join(dir, 'one.csv');
  writeFileSync(one, `${lines[0]}\r\n${lines[1]}\r\n`);

  const env = { ...process.env, MERCH_BASE_URL: sandbox.url, MERCH_TOKEN: 'sandbox-token', MERCH_CONFIG_DIR: dir };
  const cli = `await import(${JSON.stringify(join(ROOT, 'bin', 'merch.js'))});`;
  const base = ['orders', 'create', '--product', String(product.id), '--attr', `color=${color}`, '--recipients', csv];

  // Every run of a list reads the account's orders first (its earlier orders, issue 18):
  // each measured run starts from an account without orders, or the real runs before it
  // (10,000 shipping orders each) would be read too, more with every round.
  const emptyAccount = () => fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST', headers });
  const baseline = [];
  const dryOne = [];
  const dry = [];
  const real = [];
  for (let r = 0; r < runs; r++) {
    baseline.push((await cpuOf('', [], env)).ms);
    await emptyAccount();
    dryOne.push((await cpuOf(cli, [...base.slice(0, -1), one, '--dry-run'], env)).ms);
    await emptyAccount();
    const d = await cpuOf(cli, [...base, '--dry-run'], env);
    if (JSON.parse(d.stdout).shipping_orders.length !== rows) throw new Error('the dry run did not print every shipping order');
    dry.push(d.ms);
    // each real run is a new order: a new external id, so the journal does not short-cut it
    await emptyAccount();
    real.push((await cpuOf(cli, [...base, '--yes', '--external-id', `bench-${Date.now()}-${r}`], env)).ms);
  }
  const b = median(baseline);
  console.log(`orders create --recipients: ${rows} rows, median of ${runs} runs, CPU time (user+system) of the CLI process`);
  console.log(`  node -e 0 (baseline)          ${b.toFixed(0)} ms`);
  console.log(`  --dry-run, 1 row              ${median(dryOne).toFixed(0)} ms  (${(median(dryOne) - b).toFixed(0)} ms above the baseline)`);
  console.log(`  --dry-run                     ${median(dry).toFixed(0)} ms  (${(median(dry) - b).toFixed(0)} ms above the baseline, ${(median(dry) - median(dryOne)).toFixed(0)} ms above 1 row)`);
  console.log(`  --yes (create and print)  ${median(real).toFixed(0)} ms  (${(median(real) - b).toFixed(0)} ms above the baseline)`);
} finally {
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
}
