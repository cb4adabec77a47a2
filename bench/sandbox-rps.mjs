// Sandbox throughput: `GET /v1/supplier-products?limit=20` requests/s of `merch sandbox`
// (a child process) against a bare node:http server (a child process) answering every
// request with the same JSON bytes, fetched from the sandbox first. The load generator is
// this process: an undici Pool and CONCURRENCY loops, each sending the next request when
// the answer has been read, for a fixed time after a warm-up (and at most MAX_REQUESTS).
// Rounds alternate the two servers; the medians are kept. The sandbox is asked the same URL
// every time: after the first, it answers the page's body from its page cache
// (src/sandbox/page-cache.ts); routing, the views, authentication and logging run for each.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { closedLoop } from './lib/closed-loop.mjs';
import { median, row } from './lib/measure.mjs';
import { startSandboxProcess, TOKEN } from './lib/sandbox.mjs';
import { startServerProcess } from './lib/server-process.mjs';

export const GOAL = 0.5;
const CONCURRENCY = 16;
const PATH = '/v1/supplier-products?limit=20';
const MAX_REQUESTS = 500_000;

const BARE_SERVER = `
const http = require('node:http');
const body = require('node:fs').readFileSync(process.argv[1]);
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

async function load(url, { warmupMs, measureMs }) {
  const pool = new Pool(url, { connections: CONCURRENCY, pipelining: 1 });
  const headers = { authorization: `Bearer ${TOKEN}` };
  const result = await closedLoop({
    concurrency: CONCURRENCY,
    warmupMs,
    measureMs,
    maxRequests: MAX_REQUESTS,
    send: async () => {
      const response = await pool.request({ method: 'GET', path: PATH, headers });
      await response.body.dump();
      return response.statusCode === 200;
    },
  });
  await pool.close();
  return { rps: result.perSecond, p99: result.p99, errors: result.errors };
}

export async function run({ quick = false } = {}) {
  const timing = quick ? { warmupMs: 300, measureMs: 1_000 } : { warmupMs: 1_000, measureMs: 3_000 };
  const rounds = quick ? 1 : 3;
  const sandbox = await startSandboxProcess();
  const dir = mkdtempSync(join(tmpdir(), 'merch-bench-rps-'));
  const bare = [];
  const merch = [];
  try {
    const response = await fetch(sandbox.url + PATH, { headers: { authorization: `Bearer ${TOKEN}` } });
    const file = join(dir, 'page.json');
    writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    for (let round = 0; round < rounds; round++) {
      const server = await startServerProcess(['-e', BARE_SERVER, file]);
      try {
        bare.push(await load(server.url, timing));
      } finally {
        await server.stop();
      }
      merch.push(await load(sandbox.url, timing));
    }
  } finally {
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const errors = [...bare, ...merch].reduce((n, r) => n + r.errors, 0);
  if (errors > 0) throw new Error(`${errors} requests failed`);
  const value = median(merch.map((r) => r.rps));
  const baseline = median(bare.map((r) => r.rps));
  return [
    row({
      name: `sandbox GET ${PATH} (${CONCURRENCY} concurrent)`,
      value,
      baseline,
      unit: 'req/s',
      goal: `>= ${GOAL}x bare node:http`,
      pass: value / baseline >= GOAL,
      note: `p99 ${median(merch.map((r) => r.p99)).toFixed(1)} ms (bare ${median(bare.map((r) => r.p99)).toFixed(1)} ms)`,
    }),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await run({ quick: process.argv.includes('--quick') }), null, 1));
