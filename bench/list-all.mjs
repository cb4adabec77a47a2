// `merch products list --all --jsonl` over the whole catalog (20,000 records; --quick:
// 5,000) of a sandbox with 20 ms latency per response, against a minimal script that
// fetches the same pages (100 records each, the size --all asks for) one after the other
// with built-in fetch. Time: wall, spawn to exit, interleaved. Memory: peak RSS of the
// --all run against that of `merch products list --jsonl --limit 100` (one page), both
// read from process.resourceUsage() at exit.
import { fileURLToPath } from 'node:url';
import { interleave, median, merchBin, row, runNode } from './lib/measure.mjs';
import { startSandboxProcess } from './lib/sandbox.mjs';

export const TIME_GOAL = 0.3;
export const MEMORY_GOAL = 1.3;
const FETCH_PAGES = fileURLToPath(new URL('./lib/fetch-pages.mjs', import.meta.url));
const PAGE = 100;

export async function run({ quick = false } = {}) {
  const records = quick ? 5_000 : 20_000;
  const runs = quick ? 1 : 5;
  const sandbox = await startSandboxProcess({ latency: 20, catalog: records });
  try {
    const results = await interleave(
      {
        baseline: { args: [FETCH_PAGES, sandbox.url, '/v1/supplier-products', String(PAGE)], lines: records },
        all: { args: [merchBin(), 'products', 'list', '--all', '--jsonl'], lines: records },
        page: { args: [merchBin(), 'products', 'list', '--jsonl', '--limit', String(PAGE)], lines: PAGE },
      },
      runs,
      async ({ args, lines }) => {
        const r = await runNode(args, { env: sandbox.env, usage: true });
        if (r.lines !== lines) throw new Error(`${args.join(' ')} printed ${r.lines} lines, expected ${lines}`);
        return { wallMs: r.wallMs, rssMB: r.usage.maxRSS / 1024 };
      },
      { warmup: quick ? 0 : 1 },
    );
    const wall = (name) => median(results[name].map((r) => r.wallMs));
    const rss = (name) => median(results[name].map((r) => r.rssMB));
    const label = `${records.toLocaleString('en-US')} records, 20 ms latency`;
    return [
      row({
        name: `merch products list --all --jsonl (${label}): time`,
        value: wall('all'),
        baseline: wall('baseline'),
        unit: 'ms',
        goal: `<= ${TIME_GOAL}x sequential fetch`,
        pass: wall('all') / wall('baseline') <= TIME_GOAL,
      }),
      row({
        name: `merch products list --all --jsonl (${label}): peak RSS`,
        value: rss('all'),
        baseline: rss('page'),
        unit: 'MB',
        goal: `<= ${MEMORY_GOAL}x one page (--limit ${PAGE})`,
        pass: rss('all') / rss('page') <= MEMORY_GOAL,
      }),
    ];
  } finally {
    await sandbox.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await run({ quick: process.argv.includes('--quick') }), null, 1));
