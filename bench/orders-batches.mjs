#!/usr/bin/env node
// Benchmark: `merch orders create --recipients F --batch-size 1000` at three sizes of F, the
// smallest the baseline: CPU time (user + system) and peak RSS of the CLI process, from
// Node's start to its exit, for `--dry-run` (every batch read, built and checked) and for a
// real run (the same, then every batch sent and journalled), against a sandbox in this
// process (its CPU and memory are not counted). The file is read as a stream, so the peak
// RSS should not grow with the file, and the CPU time should grow linearly: the CPU per
// 1,000 rows above the smallest run is the same for the middle and the largest.
// Run after `npm run build`: `node bench/orders-batches.mjs [small] [middle] [large] [runs]`
// (default 1,000, 10,000 and 100,000 rows, the median of 3 runs each); prints one JSON line.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = process.env.MERCH_BENCH_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
const { startSandbox } = await import(join(ROOT, 'dist', 'sandbox.js'));
const fileRows = { small: Number(process.argv[2] ?? 1_000), middle: Number(process.argv[3] ?? 10_000), large: Number(process.argv[4] ?? 100_000) };
const runsEach = Number(process.argv[5] ?? 3);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const BATCH = 1_000;

// Prints the process's CPU time and peak RSS at exit on a marked stderr line.
const REPORT =
  "process.on('exit',()=>{const u=process.resourceUsage();process.stderr.write('\\nUSAGE '+((u.userCPUTime+u.systemCPUTime)/1000).toFixed(1)+' '+(u.maxRSS/1024).toFixed(1)+'\\n')});";

function usageOf(args, env) {
  const cli = `await import(${JSON.stringify(join(ROOT, 'bin', 'merch.js'))});`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', REPORT + cli, 'merch', ...args], { cwd: ROOT, env });
  let stderr = '';
  child.stdout.resume();
  child.stderr.setEncoding('utf8').on('data', (c) => (stderr = (stderr + c).slice(-4000)));
  return new Promise((resolve, reject) => {
    child.on('close', (status) => {
      const match = /USAGE (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)/.exec(stderr);
      if (status !== 0 || !match) reject(new Error(`run failed (${status}): ${stderr.slice(-2000)}`));
      else resolve({ cpuMs: Number(match[1]), rssMb: Number(match[2]) });
    });
  });
}

const sandbox = await startSandbox({ port: 0, quiet: true, eventDelayMs: 3_600_000, recordRequests: false });
const dir = mkdtempSync(join(tmpdir(), 'merch-bench-batches-'));
try {
  const headers = { authorization: 'Bearer sandbox-token' };
  const products = await (await fetch(`${sandbox.url}/v1/custom-products/?limit=100`, { headers })).json();
  const product = products.results.find((p) => p.available_attributes.sizes.length >= 3);
  const sizes = product.available_attributes.sizes.map((s) => s.name);
  const color = product.available_attributes.colors[0].name;
  const csvOf = (rows, name) => {
    const lines = ['first_name,last_name,email,line_1,city,state,postal_code,country,size'];
    for (let i = 0; i < rows; i++) lines.push(`First${i},Last${i},p${i}@example.com,"${i} Main St",Springfield,IL,62701,US,${sizes[i % 3]}`);
    const file = join(dir, name);
    writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  };
  const env = { ...process.env, MERCH_BASE_URL: sandbox.url, MERCH_TOKEN: 'sandbox-token', MERCH_CONFIG_DIR: dir };
  const args = (csv, ...extra) => ['orders', 'create', '--product', String(product.id), '--attr', `color=${color}`, '--recipients', csv, '--batch-size', String(BATCH), ...extra];
  const result = { batch_size: BATCH, rows: fileRows };
  for (const [mode, extra] of [['dry_run', ['--dry-run']], ['real', ['--yes']]]) {
    const runs = {};
    for (const [size, rows] of Object.entries(fileRows)) {
      const file = csvOf(rows, `${size}.csv`);
      const measured = [];
      // a real run makes new orders each time: a new --external-id, so neither the journal nor
      // the run's earlier orders short-cut it; and each starts from an account without orders
      // (a list's run reads the account's orders: those of the runs before would grow with them)
      for (let r = 0; r < runsEach; r++) {
        if (mode === 'real') await fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST', headers });
        measured.push(await usageOf(args(file, ...extra, ...(mode === 'real' ? ['--external-id', `bench-${size}-${Date.now()}-${r}`] : [])), env));
      }
      runs[size] = { cpuMs: median(measured.map((m) => m.cpuMs)), rssMb: median(measured.map((m) => m.rssMb)) };
      rmSync(file);
    }
    const perThousand = (size) => ((runs[size].cpuMs - runs.small.cpuMs) / (fileRows[size] - fileRows.small)) * 1000;
    result[mode] = {
      cpu_ms: Object.fromEntries(Object.keys(fileRows).map((size) => [size, runs[size].cpuMs])),
      peak_rss_mb: Object.fromEntries(Object.keys(fileRows).map((size) => [size, runs[size].rssMb])),
      cpu_ms_per_1000_rows: { middle: Number(perThousand('middle').toFixed(1)), large: Number(perThousand('large').toFixed(1)) },
    };
  }
  console.log(JSON.stringify(result));
} finally {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
}
