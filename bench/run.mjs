#!/usr/bin/env node
// `npm run bench` (after the build): runs every benchmark and prints one table, each figure
// a median over repeated runs next to its baseline measured in the same run.
//   node bench/run.mjs [--quick] [--only NAME,...] [--json] [--strict]
// --quick (CI): few runs, short windows, a 5,000-record catalog for --all; timings never
// fail it. The exit code is 0 unless a benchmark crashes; with --strict, also 1 when a goal
// is missed.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { dirname } from 'node:path';
import { merchBin, ROOT, row } from './lib/measure.mjs';

const { values: flags } = parseArgs({
  options: { quick: { type: 'boolean' }, only: { type: 'string' }, json: { type: 'boolean' }, strict: { type: 'boolean' } },
});
const quick = Boolean(flags.quick);

/** Runs a benchmark script owned by its feature (it prints its own result) as a child. */
function script(file, args, env = process.env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench', file), ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`bench/${file} exited ${code}: ${stderr.trim().split('\n').slice(-4).join(' | ')}`));
    });
  });
}

const P99_GOAL_MS = 10;
const ORDERS_CPU_GOAL_MS = 300;

const benchmarks = {
  startup: async () => (await import('./startup.mjs')).run({ quick }),
  list: async () => (await import('./list.mjs')).run({ quick }),
  'list-all': async () => (await import('./list-all.mjs')).run({ quick }),
  orders: async () => {
    // bench/orders-csv.mjs [rows] [runs]: CPU time of the CLI process, text output.
    // MERCH_BENCH_ROOT: the same private copy of the build as the other rows
    const out = await script('orders-csv.mjs', ['10000', quick ? '1' : '5'], { ...process.env, MERCH_BENCH_ROOT: dirname(dirname(merchBin())) });
    const baseline = Number(/node -e 0 \(baseline\)\s+([\d.]+) ms/.exec(out)?.[1]);
    const value = Number(/--dry-run\s+([\d.]+) ms/.exec(out)?.[1]);
    const oneRow = /--dry-run, 1 row\s+([\d.]+) ms/.exec(out)?.[1];
    const real = /--yes \([^)]*\)\s+([\d.]+) ms/.exec(out)?.[1];
    if (!Number.isFinite(baseline) || !Number.isFinite(value)) throw new Error(`unexpected output of bench/orders-csv.mjs: ${out}`);
    return [
      row({
        name: 'merch orders create --recipients (10,000 rows) --dry-run: CPU',
        value,
        baseline,
        unit: 'ms CPU',
        goal: `<= +${ORDERS_CPU_GOAL_MS} ms CPU over node -e 0`,
        pass: value - baseline <= ORDERS_CPU_GOAL_MS,
        note: `+${(value - baseline).toFixed(0)} ms${oneRow ? `; 1 row: ${oneRow} ms` : ''}${real ? `; real create: ${real} ms` : ''}`,
      }),
    ];
  },
  batches: async () => {
    // bench/orders-batches.mjs [small] [middle] [large]: CPU and peak RSS of the CLI process, --batch-size 1000
    const out = await script('orders-batches.mjs', quick ? ['1000', '5000', '10000', '1'] : ['1000', '10000', '100000', '3'], { ...process.env, MERCH_BENCH_ROOT: dirname(dirname(merchBin())) });
    const r = JSON.parse(out.trim().split('\n').pop());
    const rows = (n) => n.toLocaleString('en-US');
    return ['dry_run', 'real'].flatMap((mode) => {
      const m = r[mode];
      const label = mode === 'real' ? 'created' : '--dry-run';
      return [
        row({
          name: `orders create --batch-size 1000, ${rows(r.rows.large)} rows ${label}: peak RSS`,
          value: m.peak_rss_mb.large,
          baseline: m.peak_rss_mb.small,
          unit: 'MB',
          goal: `<= 1.5x the ${rows(r.rows.small)}-row run`,
          pass: m.peak_rss_mb.large <= 1.5 * m.peak_rss_mb.small,
          note: `${rows(r.rows.middle)} rows: ${m.peak_rss_mb.middle} MB`,
        }),
        row({
          name: `orders create --batch-size 1000, ${rows(r.rows.large)} rows ${label}: CPU per 1,000 rows`,
          value: m.cpu_ms_per_1000_rows.large,
          baseline: m.cpu_ms_per_1000_rows.middle,
          unit: 'ms CPU',
          goal: `linear: <= 1.5x the ${rows(r.rows.middle)}-row run's`,
          pass: m.cpu_ms_per_1000_rows.large <= 1.5 * m.cpu_ms_per_1000_rows.middle,
          note: `CPU ${rows(r.rows.small)} / ${rows(r.rows.middle)} / ${rows(r.rows.large)} rows: ${m.cpu_ms.small} / ${m.cpu_ms.middle} / ${m.cpu_ms.large} ms`,
        }),
      ];
    });
  },
  track: async () => (await import('./orders-track.mjs')).run({ quick }),
  mcp: async () => (await import('./mcp.mjs')).run({ quick }),
  rerun: async () => {
    // bench/orders-rerun.mjs [rows] [runs]: the rerun of a --batch-size 1000 send on a fresh machine (sends nothing)
    const out = await script('orders-rerun.mjs', quick ? ['3000', '1'] : ['100000', '3']);
    const r = JSON.parse(out.trim().split('\n').pop());
    const rows = r.rows.toLocaleString('en-US');
    return [
      row({
        name: `orders create --batch-size 1000, rerun of ${rows} rows on a fresh machine (sends nothing): time`,
        value: r.wall_ms.rerun,
        baseline: r.wall_ms.list_all,
        unit: 'ms',
        goal: '<= 1.5x orders list --all over the same orders',
        pass: r.wall_ms.rerun <= 1.5 * r.wall_ms.list_all,
        note: `the ${r.small_rows.toLocaleString('en-US')}-row rerun: ${r.wall_ms.small_rerun} ms`,
      }),
      row({
        name: `orders create --batch-size 1000, rerun of ${rows} rows on a fresh machine (sends nothing): peak RSS`,
        value: r.peak_rss_mb.rerun,
        baseline: r.peak_rss_mb.small_rerun,
        unit: 'MB',
        goal: `<= 1.5x the ${r.small_rows.toLocaleString('en-US')}-row rerun`,
        pass: r.peak_rss_mb.rerun <= 1.5 * r.peak_rss_mb.small_rerun,
        note: `orders list --all over the same orders: ${r.peak_rss_mb.list_all} MB`,
      }),
    ];
  },
  account: async () => {
    // bench/orders-account.mjs [orders] [runs]: a 10-row list rerun on a fresh machine reads every order of the account (issue 40)
    const out = await script('orders-account.mjs', quick ? ['5000', '1'] : ['20000', '3']);
    const r = JSON.parse(out.trim().split('\n').pop());
    const orders = r.orders.toLocaleString('en-US');
    return [
      row({
        name: `orders create --recipients, ${r.rows} rows into an account of ${orders} orders, rerun on a fresh machine: time`,
        value: r.wall_ms.rerun,
        baseline: r.wall_ms.list_all,
        unit: 'ms',
        goal: '<= 1.5x orders list --all --jsonl',
        pass: r.wall_ms.rerun <= 1.5 * r.wall_ms.list_all,
        note: `peak RSS ${r.peak_rss_mb.rerun} MB (orders list --all: ${r.peak_rss_mb.list_all} MB); the ${orders} orders made in ${(r.create_ms / 1000).toFixed(0)} s`,
      }),
    ];
  },
  listen: async () => {
    // MERCH_BENCH_ROOT: the same private copy of the build as the other rows
    const out = await script('listen.mjs', quick ? ['--quick'] : [], { ...process.env, MERCH_BENCH_ROOT: dirname(dirname(merchBin())) });
    const result = JSON.parse(out.trim().split('\n').pop());
    return [
      row({
        name: 'webhooks listen --save: events/s, 50 concurrent senders',
        value: result.value,
        // The fsync floor (bare node:http + the same group commit) caps what a listener that
        // acknowledges only what is on disk can do; bench/README.md has the figures.
        baseline: result.floor,
        unit: 'events/s',
        goal: `>= 0.6x the fsync floor, p99 <= ${P99_GOAL_MS} ms or 1.5x the floor's, all on disk`,
        pass:
          result.ratio_to_floor >= 0.6 &&
          result.p99_ms <= Math.max(P99_GOAL_MS, 1.5 * result.floor_p99_ms) &&
          result.journaled_equals_acknowledged &&
          result.errors === 0,
        note: `p99 ${result.p99_ms} ms (floor ${result.floor_p99_ms}, bare ${result.baseline_p99_ms}); bare node:http ${result.baseline} events/s (${result.ratio}x; the floor ${result.floor_ratio}x); journal = acknowledged: ${result.journaled_equals_acknowledged}; errors ${result.errors}`,
      }),
    ];
  },
  csv: async () => (await import('./csv-field.mjs')).run({ quick }),
  'sandbox-rps': async () => (await import('./sandbox-rps.mjs')).run({ quick }),
  'sandbox-data': async () => (await import('./sandbox-data.mjs')).run({ quick }),
  install: async () => (await import('./install.mjs')).run({ quick }),
  executable: async () => (await import('./executable.mjs')).run({ quick }),
  windows: async () => (await import('./windows.mjs')).run({ quick }),
};

const selected = flags.only ? flags.only.split(',') : Object.keys(benchmarks);
for (const name of selected) if (!benchmarks[name]) throw new Error(`unknown benchmark ${name}; one of ${Object.keys(benchmarks).join(', ')}`);

const rows = [];
let crashed = 0;
for (const name of selected) {
  const started = performance.now();
  process.stderr.write(`bench: ${name}...`);
  try {
    rows.push(...(await benchmarks[name]()));
    process.stderr.write(` ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  } catch (error) {
    crashed++;
    process.stderr.write(` FAILED\n${error.stack ?? error}\n`);
    rows.push({ name, value: NaN, baseline: NaN, unit: '', ratio: NaN, goal: '', pass: false, note: `crashed: ${String(error.message ?? error).slice(0, 200)}` });
  }
}

const number = (value, unit) => {
  if (!Number.isFinite(value)) return '-';
  const digits = unit === 'MB' || value < 100 ? 1 : 0;
  return `${value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })} ${unit}`;
};
const table = [
  ['benchmark', 'median', 'baseline', 'ratio', 'goal', 'pass', 'notes'],
  ...rows.map((r) => [
    r.name,
    number(r.value, r.unit),
    number(r.baseline, r.unit),
    Number.isFinite(r.ratio) ? `${r.ratio.toFixed(2)}x` : '-',
    r.goal,
    r.pass === null ? '-' : r.pass ? 'pass' : 'FAIL',
    r.note ?? '',
  ]),
];
if (flags.json) {
  console.log(JSON.stringify(rows, null, 1));
} else {
  // A Markdown table, so a run can be pasted into bench/README.md as it is.
  const widths = table[0].map((_, i) => Math.max(...table.map((cells) => cells[i].length)));
  const line = (cells) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(table[0]));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const cells of table.slice(1)) console.log(line(cells));
  if (quick) console.log('\n--quick: few runs and short windows; the figures are indicative, not the goals\' verdict.');
}

const missed = rows.filter((r) => r.pass === false).length;
process.exitCode = crashed > 0 ? 1 : flags.strict && missed > 0 ? 1 : 0;
