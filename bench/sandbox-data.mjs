// Benchmark (issue 32.5): `merch sandbox --data FILE` against the in-memory sandbox, on a large
// send: `merch orders create --recipients F --batch-size 1000 --yes` of `rows` rows, wall time
// spawn to exit, each run against a fresh `merch sandbox` child process (with --data: in a
// fresh directory), the two interleaved. With --data every order is appended to the journal
// and fsync'd before it is acknowledged, its payment a short line of its own; no line stops
// counting, so the journal is not compacted on the way (src/sandbox/persistence.ts,
// compaction.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interleave, median, merchBin, row, runNode } from './lib/measure.mjs';
import { startSandboxProcess, TOKEN } from './lib/sandbox.mjs';

const BATCH = 1_000;
export const GOAL = 1.3;

async function productOf(url) {
  const page = await (await fetch(`${url}/v1/custom-products/?limit=100`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
  const product = page.results.find((p) => p.available_attributes.sizes.length >= 2);
  return { id: product.id, color: product.available_attributes.colors[0].name, sizes: product.available_attributes.sizes.map((s) => s.name) };
}

function writeCsv(file, rows, product) {
  const lines = ['first_name,last_name,email,line_1,city,state,postal_code,country,size'];
  for (let i = 0; i < rows; i++) lines.push(`First${i},Last${i},p${i}@example.com,"${i} Main St",Springfield,IL,62701,US,${product.sizes[i % product.sizes.length]}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
}

/** Median wall time of the send against each sandbox, `runs` interleaved runs each. */
export async function measureSend(rows, runs) {
  const dir = mkdtempSync(join(tmpdir(), 'merch-bench-data-'));
  try {
    let fresh = 0;
    const csv = join(dir, 'rows.csv');
    let product;
    const results = await interleave(
      { memory: { data: false }, data: { data: true } },
      runs,
      async ({ data }) => {
        const state = join(dir, `run-${fresh++}`);
        const sandbox = await startSandboxProcess({ args: data ? ['--data', join(state, 's.json')] : [] });
        try {
          if (!product) {
            product = await productOf(sandbox.url);
            writeCsv(csv, rows, product);
          }
          const args = ['orders', 'create', '--product', String(product.id), '--attr', `color=${product.color}`, '--recipients', csv, '--batch-size', String(BATCH), '--yes'];
          const r = await runNode([merchBin(), ...args], { env: { ...sandbox.env, MERCH_CONFIG_DIR: join(state, 'config') }, timeoutMs: 1_800_000 });
          const created = /(\d+) created \((\d+) recipients\)/.exec(r.stderr);
          if (!created || Number(created[2]) !== rows) throw new Error(`the send did not create every row: ${r.stderr.slice(-500)}`);
          return r.wallMs;
        } finally {
          await sandbox.stop();
          rmSync(state, { recursive: true, force: true });
        }
      },
      { warmup: 0 },
    );
    return { data: median(results.data), memory: median(results.memory), runs: results };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run({ quick }) {
  const sizes = quick ? [[20_000, 1]] : [[20_000, 5], [100_000, 3]];
  const rows = [];
  for (const [count, runs] of sizes) {
    const { data, memory } = await measureSend(count, runs);
    rows.push(
      row({
        name: `merch sandbox --data: orders create ${count.toLocaleString('en-US')} rows, --batch-size ${BATCH.toLocaleString('en-US')}`,
        value: data,
        baseline: memory,
        unit: 'ms',
        goal: `<= ${GOAL}x the in-memory sandbox`,
        pass: data <= GOAL * memory,
        note: `interleaved, ${runs} ${runs === 1 ? 'run' : 'runs'} each; a fresh sandbox per run`,
      }),
    );
  }
  return rows;
}
